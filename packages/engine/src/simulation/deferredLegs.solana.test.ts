import { VersionedTransaction } from '@solana/web3.js';
import type { Keypair } from '@solana/web3.js';
import { deployJupiterLend, deploySkimmingKlend } from '@yieldrouter/chain-beds/solana';
import type { SolanaBed, SolanaSkimmingKlend } from '@yieldrouter/chain-beds/solana';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import type { PlanDocument, PlanSimulation } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { readPlan } from '../plan/readPlan';
import type { VenueConfig } from '../venues/venueConfig';
import { settleLeg } from '../wallet/settleLeg';
import { prepareRebalanceAll, prepareVenuePlan } from './testing/prepareVenuePlan';
import { startSolanaEngineBed } from './testing/solanaEngineBed';

// Issue 44 on a Solana plan of several legs (litesvm bed): a node simulates one transaction on
// the current state, so a rebalance's deposit leg is simulated once its withdraw leg settled, on
// the state the chain then has; what lands equals it, and settlement compares it as leg 0's.
// The skimming klend stands where kamino is (honest until its skim is switched on).

let test: TestDatabase;
let solana: SolanaBed;
let skimming: SolanaSkimmingKlend;
let adapters: ChainAdapters;
let venues: VenueConfig;
let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  const bed = await startSolanaEngineBed((started, router) => {
    const jupiter = deployJupiterLend(started, { router });
    const klend = deploySkimmingKlend(started, router);
    return { ids: { kamino: klend.ids, 'jupiter-lend': jupiter.ids }, klend };
  });
  ({ test, solana, adapters, venues, stop } = bed);
  skimming = bed.deployed.klend;
}, 180_000);
afterAll(() => stop?.());

type Simulated = Extract<PlanSimulation, { status: 'simulated' }>;

const simulationOf = async (planId: string): Promise<Simulated> => {
  const { simulation } = await readPlan(test.db, planId);
  if (simulation?.status !== 'simulated') throw new Error(JSON.stringify(simulation));
  return simulation;
};

const settle = (planId: string, legIndex: number, txId: string) =>
  settleLeg({ db: test.db, adapters, venues, planId, legIndex, txId, now: new Date() });

function send(owner: Keypair, plan: PlanDocument, index: number): string {
  const wire = plan.legs?.[index]?.transaction;
  if (typeof wire !== 'string') throw new Error(`no leg ${index}`);
  const transaction = VersionedTransaction.deserialize(Buffer.from(wire, 'base64'));
  transaction.sign([owner]);
  const outcome = solana.send(transaction);
  if (!outcome.landed || outcome.entry.err !== null) throw new Error(JSON.stringify(outcome));
  return outcome.entry.signature;
}

/** A deposit of `amount` into `id`, settled: the staked position a rebalance moves. */
async function staked(owner: Keypair, id: string, amount: bigint) {
  const address = owner.publicKey.toBase58();
  const plan = await prepareVenuePlan(
    { db: test.db, adapters, venues },
    { kind: 'deposit', id, owner: address, amountMicros: amount },
  );
  await settle(plan.planId as string, 0, send(owner, plan, 0));
}

async function rebalance(owner: Keypair, from: string, to: string) {
  const plan = await prepareRebalanceAll(
    { db: test.db, adapters, venues },
    { wallet: owner.publicKey.toBase58(), from, to },
  );
  expect(plan.status).toBe('prepared');
  return plan;
}

const simulatedEvents = async (planId: string) =>
  (
    await test.db.$queryRaw<
      { payload: { planId: string; legIndex: number; findings: unknown[] } }[]
    >`
      SELECT payload FROM outbox_events WHERE type = 'plan.simulated'`
  )
    .map((row) => row.payload)
    .filter((payload) => payload.planId === planId);

/** A leg's simulated changes as `readLegChanges` gives them (bigint deltas). */
const changesOf = (simulation: Simulated, index: number) =>
  (simulation.legs[index]?.changes ?? []).map(({ account, holder, asset, delta }) => ({
    account,
    ...(holder === undefined ? {} : { holder }),
    asset,
    delta: BigInt(delta),
  }));

it('an honest rebalance: the deposit leg simulated once the withdraw leg settled, as landed', async () => {
  const owner = solana.createFundedKeypair();
  const address = owner.publicKey.toBase58();
  solana.mintUsdc(owner.publicKey, 10_000_000n);
  await staked(owner, 'kamino', 4_000_000n);
  const plan = await rebalance(owner, 'kamino', 'jupiter-lend');
  const planId = plan.planId as string;
  expect(plan.legs?.map((leg) => leg.action)).toEqual(['withdraw', 'deposit']);
  // Leg 0 run on the current state; leg 1 waits for it: no changes, no findings, no pass.
  expect(plan.simulation).toMatchObject({
    status: 'simulated',
    method: 'simulateTransaction',
    findings: [],
    legs: [
      { index: 0, outcome: 'ok' },
      { index: 1, outcome: 'deferred', waitsFor: 0, changes: [] },
    ],
  });
  const atPrepare = await simulationOf(planId);
  expect(atPrepare).toEqual(plan.simulation);

  const out = send(owner, plan, 0);
  expect(await adapters.solana.readLegChanges!(out)).toEqual({
    status: 'ok',
    changes: changesOf(atPrepare, 0),
    block: expect.any(String),
  });
  expect(await settle(planId, 0, out)).toMatchObject({ status: 'confirmed', reviewReason: null });

  // Leg 1 now simulated on the state leg 0 left: its own slot, a new digest, the event.
  const after = await simulationOf(planId);
  expect(after.digest).not.toBe(atPrepare.digest);
  expect(after.findings).toEqual([]);
  const deposit = after.legs[1];
  expect(deposit).toMatchObject({
    index: 1,
    outcome: 'ok',
    bytesDigest: atPrepare.legs[1]?.bytesDigest,
    block: expect.stringMatching(/^[0-9]+$/),
  });
  expect(deposit?.waitsFor).toBeUndefined();
  const usdc = deposit?.changes.filter((change) => change.usdc) ?? [];
  expect(usdc).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ holder: address, role: 'owner', delta: '-4000000' }),
      expect.objectContaining({ role: 'venue', delta: '4000000' }),
    ]),
  );
  expect(await simulatedEvents(planId)).toEqual([
    expect.objectContaining({ legIndex: 1, findings: [] }),
  ]);

  const into = send(owner, plan, 1);
  const landed = await adapters.solana.readLegChanges!(into);
  expect(landed).toEqual({ status: 'ok', changes: changesOf(after, 1), block: expect.any(String) });
  // It landed on or after the slot it was simulated at: settlement compares the two.
  const landedAt = landed.status === 'ok' ? BigInt(landed.block ?? '0') : 0n;
  expect(landedAt).toBeGreaterThanOrEqual(BigInt(deposit?.block ?? 'x'));
  expect(await settle(planId, 1, into)).toMatchObject({ status: 'confirmed', reviewReason: null });
  expect((await readPlan(test.db, planId)).divergences).toEqual([]);
});

it("a venue that starts skimming after the withdraw leg: the deposit leg's simulation says so", async () => {
  const owner = solana.createFundedKeypair();
  solana.mintUsdc(owner.publicKey, 10_000_000n);
  await staked(owner, 'jupiter-lend', 3_000_000n);
  const plan = await rebalance(owner, 'jupiter-lend', 'kamino');
  const planId = plan.planId as string;
  expect(plan.simulation).toMatchObject({ status: 'simulated', findings: [] });
  const out = send(owner, plan, 0);
  // The operator turns klend's skim on between the withdraw landing and the deposit's signing.
  skimming.setSkimBps(500n);
  try {
    expect(await settle(planId, 0, out)).toMatchObject({ status: 'confirmed' });
    const after = await simulationOf(planId);
    expect(after.legs[1]?.outcome).toBe('ok');
    expect(after.findings.map((finding) => [finding.legIndex, finding.code]).sort()).toEqual([
      [1, 'owner_amount_mismatch'],
      [1, 'venue_amount_mismatch'],
    ]);
    expect(await simulatedEvents(planId)).toEqual([
      expect.objectContaining({
        legIndex: 1,
        findings: [
          expect.objectContaining({ code: 'owner_amount_mismatch' }),
          expect.objectContaining({ code: 'venue_amount_mismatch' }),
        ],
      }),
    ]);
  } finally {
    skimming.setSkimBps(0n);
  }
});
