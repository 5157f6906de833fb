import { insertPlan } from '@yieldrouter/ledger';
import type { PlanLegInput, SettlementLeg } from '@yieldrouter/ledger';
import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import type { ChainBalanceChange, PlanSimulation, SimulatedLeg } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { legDivergence } from './legDivergence';
import { simulationDigest } from './simulatePlan';

// Issue 44 at settlement, for the legs other than a venue's: a payout, a burn and a swap are
// compared with their simulation (the chain's reading is a stand-in of `readLegChanges`, the
// adapter's interface; the plan, its simulation and the divergence are real rows).

const OWNER = '0x00000000000000000000000000000000000000aa';
const PAYEE = '0x00000000000000000000000000000000000000bb';
const SKIMMER = '0x00000000000000000000000000000000000000cc';
const USDC = '0x00000000000000000000000000000000000000dd';
const WETH = '0x00000000000000000000000000000000000000ee';
const TX = `0x${'ab'.repeat(32)}`;

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
}, 120_000);
afterAll(() => test?.drop());

const row = (account: string, asset: string, delta: string) => ({
  account,
  role: account === OWNER ? ('owner' as const) : ('payee' as const),
  asset,
  usdc: asset === USDC,
  delta,
});

/** Stores a one-leg plan with its simulation; the leg as settlement reads it. */
async function stored(
  planId: string,
  leg: Pick<PlanLegInput, 'action' | 'effect'>,
  changes: SimulatedLeg['changes'],
  swap?: { slippageBps: number },
  /** A leg simulated after the one before it settled (Solana, Sui): its chain and own block. */
  later?: { chain: 'solana' | 'sui'; block: string },
): Promise<SettlementLeg> {
  const chain = later?.chain ?? 'base';
  const legs: SimulatedLeg[] = [
    {
      index: 0,
      bytesDigest: `sha256:${'0'.repeat(64)}`,
      outcome: 'ok',
      changes,
      ...(later ? { block: later.block } : {}),
    },
  ];
  const simulation: PlanSimulation = {
    status: 'simulated',
    chain,
    method: 'eth_simulateV1',
    block: '1',
    legs,
    findings: [],
    digest: simulationDigest(planId, legs),
  };
  await insertPlan(test.db, {
    id: planId,
    kind: leg.action === 'swap' ? 'swap' : 'auto_pay',
    status: 'prepared',
    chain,
    venueId: null,
    owner: OWNER,
    wallet: OWNER,
    amountMicros: 1_000_000n,
    feeMicros: 0n,
    request: {},
    blockers: [],
    ...(swap ? { swap } : {}),
    legs: [{ ...leg, summary: 'leg', amountMicros: 1_000_000n, settles: true, payload: {} }],
    simulation: { status: 'simulated', digest: simulation.digest, document: simulation },
  });
  return {
    planId,
    legIndex: 0,
    chain,
    owner: OWNER,
    wallet: OWNER,
    action: leg.action,
    effect: leg.effect,
    swap: swap ?? null,
  } as unknown as SettlementLeg;
}

const reading = (changes: ChainBalanceChange[], block?: string) => {
  const readLegChanges = async () => ({
    status: 'ok' as const,
    changes,
    ...(block === undefined ? {} : { block }),
  });
  return { base: { readLegChanges }, solana: { readLegChanges }, sui: { readLegChanges } };
};

const compare = (leg: SettlementLeg, changes: ChainBalanceChange[], block?: string) =>
  legDivergence(
    {
      db: test.db,
      adapters: reading(changes, block) as unknown as ChainAdapters,
      txId: TX,
      now: new Date(),
    },
    leg,
  );

it('a payout whose payee got less than simulated: recorded, with the plan.divergence event', async () => {
  const leg = await stored(
    'plan_00000000000000000000000000000a01',
    {
      action: 'transfer',
      effect: 'pay_out',
    },
    [row(OWNER, USDC, '-1000000'), row(PAYEE, USDC, '1000000')],
  );
  const divergence = await compare(leg, [
    { account: OWNER, asset: USDC, delta: -1_000_000n },
    { account: PAYEE, asset: USDC, delta: 990_000n },
    { account: SKIMMER, asset: USDC, delta: 10_000n },
  ]);
  expect(divergence.events).toEqual([
    expect.objectContaining({ type: 'plan.divergence', wallet: OWNER }),
  ]);
  const [recorded] = await test.db.$queryRaw<{ changes: unknown }[]>`
    SELECT changes FROM plan_divergences WHERE plan_id = ${leg.planId}`;
  expect(recorded?.changes).toEqual([
    { account: PAYEE, role: 'payee', asset: USDC, simulated: '1000000', actual: '990000' },
    { account: SKIMMER, role: 'other', asset: USDC, simulated: '0', actual: '10000' },
  ]);
});

it('a burn that took one micro more than it simulated: recorded', async () => {
  const leg = await stored(
    'plan_00000000000000000000000000000a02',
    { action: 'burn', effect: 'bridge_burn' },
    [row(OWNER, USDC, '-1000000')],
  );
  const exact = await compare(leg, [{ account: OWNER, asset: USDC, delta: -1_000_000n }]);
  expect(exact).toEqual({ events: [], note: null });
  const more = await compare(leg, [{ account: OWNER, asset: USDC, delta: -1_000_001n }]);
  expect(more.note).toBe(
    "diverged from its simulation: the owner's " + USDC + ' moved -1000001, simulated -1000000',
  );
});

it('a swap: a fill within its slippage passes, one beyond it is recorded with the bound', async () => {
  const changes = [row(OWNER, USDC, '-1000000'), row(OWNER, WETH, '400000')];
  const within = await stored(
    'plan_00000000000000000000000000000a03',
    { action: 'swap', effect: 'swap' },
    changes,
    { slippageBps: 100 },
  );
  const fill = (weth: bigint) => [
    { account: OWNER, asset: USDC, delta: -1_000_000n },
    { account: OWNER, asset: WETH, delta: weth },
  ];
  expect((await compare(within, fill(396_000n))).events).toEqual([]);
  const beyond = await stored(
    'plan_00000000000000000000000000000a04',
    { action: 'swap', effect: 'swap' },
    changes,
    { slippageBps: 100 },
  );
  const divergence = await compare(beyond, fill(395_999n));
  expect(divergence.note).toMatch(/beyond the slippage bound 4000/);
  expect(divergence.events[0]?.payload).toMatchObject({
    changes: [{ asset: WETH, simulated: '400000', actual: '395999', tolerance: '4000' }],
  });
});

it('a later leg that landed before its simulation ran is not compared with it', async () => {
  const changes = [row(OWNER, USDC, '-1000000'), row(PAYEE, USDC, '1000000')];
  const short = [
    { account: OWNER, asset: USDC, delta: -1_000_000n },
    { account: PAYEE, asset: USDC, delta: 900_000n },
  ];
  const payout = { action: 'transfer', effect: 'pay_out' } as const;
  // Sui: the dry run ran after checkpoint 10; a transaction in checkpoint 10 was in its state.
  const sui = await stored('plan_00000000000000000000000000000a05', payout, changes, undefined, {
    chain: 'sui',
    block: '10',
  });
  expect(await compare(sui, short, '10')).toEqual({ events: [], note: null });
  expect((await compare(sui, short, '11')).note).toMatch(/diverged from its simulation/);
  // Solana: simulated at slot 10; a transaction in slot 9 was in its state, one in 10 was not.
  const solana = await stored('plan_00000000000000000000000000000a06', payout, changes, undefined, {
    chain: 'solana',
    block: '10',
  });
  expect(await compare(solana, short, '9')).toEqual({ events: [], note: null });
  expect((await compare(solana, short, '10')).note).toMatch(/diverged from its simulation/);
  // Where it landed unknown: compared.
  expect((await compare(solana, short)).note).toMatch(/diverged from its simulation/);
});
