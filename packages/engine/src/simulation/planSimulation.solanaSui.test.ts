import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { JsonRpcHTTPTransport, SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { Transaction } from '@mysten/sui/transactions';
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { PublicKey, VersionedTransaction } from '@solana/web3.js';
import type { Keypair } from '@solana/web3.js';
import {
  deploySkimmingKlend,
  deployYieldRouter,
  startSolanaBed,
} from '@yieldrouter/chain-beds/solana';
import type {
  SolanaBed,
  SolanaRouterDeployment,
  SolanaSkimmingKlend,
} from '@yieldrouter/chain-beds/solana';
import { startSuiFake } from '@yieldrouter/chain-beds/sui';
import type { SuiFake, SuiFakeSuilend } from '@yieldrouter/chain-beds/sui';
import { createSolanaAdapter } from '@yieldrouter/chain-solana';
import { createSuiAdapter } from '@yieldrouter/chain-sui';
import { USDC } from '@yieldrouter/chain-sui/src/testFixtures';
import { fundedWallet } from '@yieldrouter/chain-sui/src/venues/walletSend.testing';
import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import type { LegRequest, PlanDocument } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { readPlan } from '../plan/readPlan';
import { seedVenueCatalog } from '../venues/seedVenueCatalog';
import type { VenueConfig } from '../venues/venueConfig';
import { settleLeg } from '../wallet/settleLeg';
import { prepareVenuePlan } from './testing/prepareVenuePlan';

// Issue 44 on Solana (litesvm bed, simulateTransaction) and Sui (the bed fake,
// dryRunTransactionBlock), end to end on PostgreSQL: a deposit and a withdrawal plan carry their
// simulated outcome, equal to what the landed transaction moved; settlement compares them and
// records plan.divergence when they differ (a real cheating venue on the bed: the skimming klend).

let test: TestDatabase;
let solana: SolanaBed;
let router: SolanaRouterDeployment;
let fake: SuiFake;
let suilend: SuiFakeSuilend;
let suiClient: SuiJsonRpcClient;
let adapters: ChainAdapters;
let venues: VenueConfig;
/** The skimming klend (a cheating bed) where `kamino` is: the adapter builds the same bytes. */
let skimming: SolanaSkimmingKlend;
let skimmingVenues: VenueConfig;

beforeAll(async () => {
  [test, solana, fake] = await Promise.all([
    createTestDatabase(),
    startSolanaBed(),
    startSuiFake(),
  ]);
  await seedVenueCatalog(test.db);
  router = deployYieldRouter(solana);
  suilend = fake.addSuilend({ usdc: USDC, availableAmount: 1_000_000_000_000n });
  suiClient = new SuiJsonRpcClient({
    network: 'localnet',
    transport: new JsonRpcHTTPTransport({ url: fake.rpcUrl }),
  });
  adapters = {
    solana: createSolanaAdapter({
      rpcUrl: solana.rpcUrl,
      timeoutMs: 2_000,
      broadcastEnabled: true,
      usdcMint: solana.usdcMint,
      programId: router.programId,
      yieldRouter: router.yieldRouter,
      adapterRegistry: router.adapterRegistry,
    }),
    sui: createSuiAdapter({
      rpcUrl: fake.rpcUrl,
      network: 'localnet',
      timeoutMs: 2_000,
      broadcastEnabled: true,
      usdcCoinType: USDC,
    }),
  } as unknown as ChainAdapters;
  venues = {
    ids: { kamino: router.kamino.ids, suilend: suilend.ids },
    apyPools: {},
    apyMaxAgeMs: 3_600_000,
    apyMeanMinSamples: 1,
  };
  skimming = deploySkimmingKlend(solana, router);
  skimmingVenues = { ...venues, ids: { ...venues.ids, kamino: skimming.ids } };
}, 180_000);
afterAll(async () => {
  await Promise.all([test?.drop(), solana?.stop(), fake?.stop()]);
});

const prepare = (
  kind: 'deposit' | 'withdraw',
  id: string,
  owner: string,
  amountMicros: bigint,
  on: VenueConfig = venues,
) => prepareVenuePlan({ db: test.db, adapters, venues: on }, { kind, id, owner, amountMicros });

const settle = (plan: PlanDocument, txId: string, on: VenueConfig = venues) =>
  settleLeg({
    db: test.db,
    adapters,
    venues: on,
    planId: plan.planId as string,
    legIndex: 0,
    txId,
    now: new Date(),
  });

/** The only leg's wire text. */
function onlyLeg(plan: PlanDocument): string {
  expect(plan.status).toBe('prepared');
  const [leg, ...rest] = plan.legs ?? [];
  if (!leg || rest.length > 0 || typeof leg.transaction !== 'string') throw new Error('one leg');
  return leg.transaction;
}

function sendSolana(owner: Keypair, plan: PlanDocument): string {
  const transaction = VersionedTransaction.deserialize(Buffer.from(onlyLeg(plan), 'base64'));
  transaction.sign([owner]);
  const outcome = solana.send(transaction);
  if (!outcome.landed || outcome.entry.err !== null) throw new Error(JSON.stringify(outcome));
  return outcome.entry.signature;
}

async function sendSui(wallet: Ed25519Keypair, plan: PlanDocument): Promise<string> {
  const tx = Transaction.from(onlyLeg(plan));
  tx.setGasPrice(fake.referenceGasPrice);
  tx.setGasBudget(10_000_000n);
  const bytes = await tx.build({ client: suiClient });
  const { signature } = await wallet.signTransaction(bytes);
  const result = await suiClient.executeTransactionBlock({ transactionBlock: bytes, signature });
  return result.digest;
}

/** The simulated leg's changes, as `readLegChanges` would give them (bigint deltas). */
function simulatedChanges(plan: PlanDocument) {
  const simulation = plan.simulation;
  if (simulation?.status !== 'simulated') throw new Error(JSON.stringify(simulation));
  return (simulation.legs[0]?.changes ?? []).map(({ account, holder, asset, delta }) => ({
    account,
    ...(holder === undefined ? {} : { holder }),
    asset,
    delta: BigInt(delta),
  }));
}

/** Simulated with no findings; landed; the landed changes are the simulated ones; no divergence. */
async function honest(plan: PlanDocument, send: (plan: PlanDocument) => Promise<string> | string) {
  expect(plan.simulation).toMatchObject({ status: 'simulated', findings: [] });
  expect((await readPlan(test.db, plan.planId as string)).simulation).toEqual(plan.simulation);
  const txId = await send(plan);
  const chain = plan.simulation?.status === 'simulated' ? plan.simulation.chain : 'solana';
  expect(await adapters[chain].readLegChanges!(txId)).toEqual({
    status: 'ok',
    changes: simulatedChanges(plan),
    block: expect.stringMatching(/^[0-9]+$/),
  });
  expect(await settle(plan, txId)).toMatchObject({ status: 'confirmed', reviewReason: null });
  expect((await readPlan(test.db, plan.planId as string)).divergences).toEqual([]);
}

describe('Solana: kamino through the router', () => {
  it('an honest deposit and withdrawal: simulated (simulateTransaction) as settled', async () => {
    const owner = solana.createFundedKeypair();
    const address = owner.publicKey.toBase58();
    solana.mintUsdc(owner.publicKey, 10_000_000n);
    const deposit = await prepare('deposit', 'kamino', address, 4_000_000n);
    expect(deposit.simulation).toMatchObject({ method: 'simulateTransaction', chain: 'solana' });
    const usdc = simulatedChanges(deposit).filter((change) => change.asset === solana.usdcMint);
    expect(usdc).toHaveLength(2);
    expect(usdc).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ holder: address, delta: -4_000_000n }),
        expect.objectContaining({
          account: router.kamino.ids.reserveLiquiditySupply,
          delta: 4_000_000n,
        }),
      ]),
    );
    await honest(deposit, (plan) => sendSolana(owner, plan));

    const withdrawal = await prepare('withdraw', 'kamino', address, 1_500_000n);
    await honest(withdrawal, (plan) => sendSolana(owner, plan));
  });

  it('a venue that starts skimming after the simulation: settlement reads it from the chain, plan.divergence says so', async () => {
    const owner = solana.createFundedKeypair();
    const address = owner.publicKey.toBase58();
    const ownerUsdc = getAssociatedTokenAddressSync(
      new PublicKey(solana.usdcMint),
      owner.publicKey,
    ).toBase58();
    solana.mintUsdc(owner.publicKey, 10_000_000n);
    const supply = skimming.ids.reserveLiquiditySupply;
    // An honest deposit while the venue does not skim, then a withdrawal prepared (simulated
    // honest) before the operator turns the skim on: the same bytes, signed as prepared, then pay
    // the owner 1.9 USDC of the 2 the venue's log and the router's event claim; the rest stays in
    // the venue's vault.
    const deposit = await prepare('deposit', 'kamino', address, 4_000_000n, skimmingVenues);
    await settle(deposit, sendSolana(owner, deposit), skimmingVenues);
    const plan = await prepare('withdraw', 'kamino', address, 2_000_000n, skimmingVenues);
    expect(plan.simulation).toMatchObject({ status: 'simulated', findings: [] });
    const planId = plan.planId as string;
    skimming.setSkimBps(500n);
    try {
      const txId = sendSolana(owner, plan);
      const settled = await settle(plan, txId, skimmingVenues);
      // The books follow the receipt: what reached the owner.
      expect(settled).toMatchObject({
        status: 'confirmed',
        quotedAmountMicros: '2000000',
        settledAmountMicros: '1900000',
      });
      const stored = await readPlan(test.db, planId);
      expect(stored.legs[0]?.reviewReason).toMatch(/diverged from its simulation/);
      expect(stored.divergences).toEqual([
        {
          legIndex: 0,
          txId,
          simulationDigest: plan.simulation?.status === 'simulated' ? plan.simulation.digest : '',
          changes: expect.arrayContaining([
            expect.objectContaining({
              account: ownerUsdc,
              holder: address,
              role: 'owner',
              simulated: '2000000',
              actual: '1900000',
            }),
            expect.objectContaining({
              account: supply,
              role: 'venue',
              simulated: '-2000000',
              actual: '-1900000',
            }),
          ]),
          recordedAt: expect.any(String),
        },
      ]);
      expect(stored.divergences?.[0]?.changes).toHaveLength(2);
      const events = await test.db.$queryRaw<{ payload: { planId: string } }[]>`
        SELECT payload FROM outbox_events WHERE type = 'plan.divergence'`;
      expect(events.map((event) => event.payload.planId)).toContain(planId);
    } finally {
      skimming.setSkimBps(0n);
    }
  });

  it('a venue that starts skimming deposits after the simulation: the receipt is not the leg', async () => {
    const owner = solana.createFundedKeypair();
    const address = owner.publicKey.toBase58();
    solana.mintUsdc(owner.publicKey, 10_000_000n);
    const plan = await prepare('deposit', 'kamino', address, 3_000_000n, skimmingVenues);
    expect(plan.simulation).toMatchObject({ status: 'simulated', findings: [] });
    skimming.setSkimBps(500n);
    try {
      // 3.15 USDC leave the owner (the skim on top, into the venue's vault); the router's event
      // asked 3: a venue may take less than asked (rounding), never more, so settlement refuses
      // to book the transaction as this leg.
      const txId = sendSolana(owner, plan);
      await expect(settle(plan, txId, skimmingVenues)).rejects.toMatchObject({
        code: 'RECEIPT_MISMATCH',
        message: expect.stringMatching(
          /took 3\.15 USDC, more than asked \(.*deposit_to_venue amount=3000000\)/,
        ),
      });
      expect((await readPlan(test.db, plan.planId as string)).legs[0]?.status).not.toBe(
        'confirmed',
      );
    } finally {
      skimming.setSkimBps(0n);
    }
  });

  it('a venue that already skims when the plan is prepared: caught by the simulation', async () => {
    const owner = solana.createFundedKeypair();
    solana.mintUsdc(owner.publicKey, 10_000_000n);
    skimming.setSkimBps(500n);
    try {
      const plan = await prepare(
        'deposit',
        'kamino',
        owner.publicKey.toBase58(),
        3_000_000n,
        skimmingVenues,
      );
      const findings = plan.simulation?.status === 'simulated' ? plan.simulation.findings : [];
      expect(findings.map((finding) => [finding.legIndex, finding.code]).sort()).toEqual([
        [0, 'owner_amount_mismatch'],
        [0, 'venue_amount_mismatch'],
      ]);
    } finally {
      skimming.setSkimBps(0n);
    }
  });
});

describe('Sui: suilend', () => {
  const funded = () => fundedWallet(fake);

  it('an honest deposit and withdrawal: simulated (dryRunTransactionBlock) as settled', async () => {
    const wallet = funded();
    const owner = wallet.toSuiAddress();
    const deposit = await prepare('deposit', 'suilend', owner, 20_000_000n);
    expect(deposit.simulation).toMatchObject({ method: 'dryRunTransactionBlock', chain: 'sui' });
    await honest(deposit, (plan) => sendSui(wallet, plan));
    const withdrawal = await prepare('withdraw', 'suilend', owner, 5_000_000n);
    await honest(withdrawal, (plan) => sendSui(wallet, plan));
  });

  /** The Sui treasury a withdrawal's skim is split off to (SVC_SUI_TREASURY). */
  const TREASURY = new Ed25519Keypair().toSuiAddress();

  /** An owner whose 20 USDC in suilend earned interest, and what its cTokens redeem for now. */
  async function accrued() {
    const wallet = funded();
    const owner = wallet.toSuiAddress();
    await honest(await prepare('deposit', 'suilend', owner, 20_000_000n), (plan) =>
      sendSui(wallet, plan),
    );
    suilend.accrue(1_000_000_000n);
    const { shares } = await test.db.position.findFirstOrThrow({
      where: { wallet: owner, venueId: 'suilend' },
    });
    return { wallet, owner, worth: suilend.redeemValue(BigInt(shares.toFixed())) };
  }

  /** A withdrawal of everything, its skim split off to the treasury inside the leg. */
  const withdrawAll = (owner: string, worth: bigint, on: ChainAdapters = adapters) =>
    prepareVenuePlan(
      { db: test.db, adapters: on, venues, treasuries: { sui: TREASURY } },
      { kind: 'withdraw', id: 'suilend', owner, amountMicros: worth },
    );

  it('a withdrawal splitting its skim off: the owner judged against the leg less it, as settled', async () => {
    const { wallet, owner, worth } = await accrued();
    const withdrawal = await withdrawAll(owner, worth);
    const skim = BigInt(withdrawal.skim?.skimMicros ?? '0');
    expect(skim).toBeGreaterThan(0n);
    expect(simulatedChanges(withdrawal)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ account: owner, delta: worth - skim }),
        expect.objectContaining({ account: TREASURY, delta: skim }),
      ]),
    );
    await honest(withdrawal, (plan) => sendSui(wallet, plan));
  });

  it('a withdrawal whose split goes to another than the treasury: caught at prepare', async () => {
    const { owner, worth } = await accrued();
    const stranger = new Ed25519Keypair().toSuiAddress();
    // A leg builder that sends the skim elsewhere: the plan's roles still name the treasury.
    const elsewhere = (request: LegRequest) =>
      adapters.sui.buildWithdraw(
        request.skim ? { ...request, skim: { ...request.skim, recipient: stranger } } : request,
      );
    const cheating: ChainAdapters = {
      ...adapters,
      sui: { ...adapters.sui, buildWithdraw: elsewhere },
    };
    const withdrawal = await withdrawAll(owner, worth, cheating);
    const simulation = withdrawal.simulation;
    expect(simulation?.status).toBe('simulated');
    const findings = simulation?.status === 'simulated' ? simulation.findings : [];
    // The owner got the leg less the skim (no owner_amount_mismatch); the treasury nothing.
    expect(findings.map((finding) => finding.code).sort()).toEqual([
      'treasury_amount_mismatch',
      'unexpected_recipient',
    ]);
  });
});
