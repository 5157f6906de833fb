import type { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { JsonRpcHTTPTransport, SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { Transaction } from '@mysten/sui/transactions';
import {
  createAssociatedTokenAccountIdempotentInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { Connection, PublicKey, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import type { Keypair } from '@solana/web3.js';
import { deployYieldRouter, startSolanaBed } from '@yieldrouter/chain-beds/solana';
import type { SolanaBed, SolanaRouterDeployment } from '@yieldrouter/chain-beds/solana';
import { startSuiFake } from '@yieldrouter/chain-beds/sui';
import type { SuiFake } from '@yieldrouter/chain-beds/sui';
import { createSolanaAdapter } from '@yieldrouter/chain-solana';
import { createSuiAdapter } from '@yieldrouter/chain-sui';
import { USDC } from '@yieldrouter/chain-sui/src/testFixtures';
import { fundedWallet } from '@yieldrouter/chain-sui/src/venues/walletSend.testing';
import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import type { PlanDocument } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { readPlan } from '../plan/readPlan';
import { seedVenueCatalog } from '../venues/seedVenueCatalog';
import type { VenueConfig } from '../venues/venueConfig';
import { settleLeg } from '../wallet/settleLeg';
import { prepareVenuePlan } from './testing/prepareVenuePlan';

// Issue 44 on Solana (litesvm bed, simulateTransaction) and Sui (the bed fake,
// dryRunTransactionBlock), end to end on PostgreSQL: a deposit and a withdrawal plan carry their
// simulated outcome, equal to what the landed transaction moved; settlement compares them and
// records plan.divergence when they differ.

let test: TestDatabase;
let solana: SolanaBed;
let router: SolanaRouterDeployment;
let fake: SuiFake;
let suiClient: SuiJsonRpcClient;
let adapters: ChainAdapters;
let venues: VenueConfig;

beforeAll(async () => {
  [test, solana, fake] = await Promise.all([
    createTestDatabase(),
    startSolanaBed(),
    startSuiFake(),
  ]);
  await seedVenueCatalog(test.db);
  router = deployYieldRouter(solana);
  const suilend = fake.addSuilend({ usdc: USDC, availableAmount: 1_000_000_000_000n });
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
}, 180_000);
afterAll(async () => {
  await Promise.all([test?.drop(), solana?.stop(), fake?.stop()]);
});

const prepare = (kind: 'deposit' | 'withdraw', id: string, owner: string, amountMicros: bigint) =>
  prepareVenuePlan({ db: test.db, adapters, venues }, { kind, id, owner, amountMicros });

const settle = (plan: PlanDocument, txId: string) =>
  settleLeg({
    db: test.db,
    adapters,
    venues,
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

  it('a venue that skims when the deposit lands: the receipt books it, plan.divergence says so', async () => {
    const owner = solana.createFundedKeypair();
    const address = owner.publicKey.toBase58();
    solana.mintUsdc(owner.publicKey, 10_000_000n);
    // The owner's receipt token account exists before (a laid-down landing only moves
    // existing accounts).
    const cToken = new PublicKey(router.kamino.ids.reserveCollateralMint as string);
    const create = new TransactionMessage({
      payerKey: owner.publicKey,
      recentBlockhash: solana.latestBlockhash(),
      instructions: [
        createAssociatedTokenAccountIdempotentInstruction(
          owner.publicKey,
          getAssociatedTokenAddressSync(cToken, owner.publicKey),
          owner.publicKey,
          cToken,
        ),
      ],
    }).compileToV0Message();
    const created = new VersionedTransaction(create);
    created.sign([owner]);
    expect(solana.send(created)).toMatchObject({ landed: true });
    const plan = await prepare('deposit', 'kamino', address, 3_000_000n);
    expect(plan.simulation).toMatchObject({ status: 'simulated', findings: [] });
    const planId = plan.planId as string;
    const supply = router.kamino.ids.reserveLiquiditySupply as string;
    // The bed has no cheating klend; the landing is laid down with what such a venue does
    // (SolanaLedger.record): the owner pays 3 USDC and gets its receipts, the router logs the
    // leg as it does, but the reserve's supply takes in 2.85 (the rest went to a skimmer's
    // account outside the transaction's keys). The logs are the honest run's own.
    const transaction = VersionedTransaction.deserialize(Buffer.from(onlyLeg(plan), 'base64'));
    transaction.sign([owner]);
    const { value } = await new Connection(solana.rpcUrl).simulateTransaction(transaction);
    expect(value.err).toBeNull();
    const deltas = Object.fromEntries(
      simulatedChanges(plan).map((change) => [
        change.account,
        change.account === supply ? 2_850_000n : change.delta,
      ]),
    );
    const entry = solana.record(transaction, {
      tokenDeltas: deltas,
      logMessages: value.logs ?? [],
    });
    const settled = await settle(plan, entry.signature);
    // The books follow the receipt (the owner's side and the router's event are as planned).
    expect(settled).toMatchObject({ status: 'confirmed' });
    const stored = await readPlan(test.db, planId);
    expect(stored.legs[0]?.reviewReason).toMatch(/diverged from its simulation/);
    expect(stored.divergences).toEqual([
      {
        legIndex: 0,
        txId: entry.signature,
        simulationDigest: plan.simulation?.status === 'simulated' ? plan.simulation.digest : '',
        changes: [
          expect.objectContaining({
            account: supply,
            role: 'venue',
            simulated: '3000000',
            actual: '2850000',
          }),
        ],
        recordedAt: expect.any(String),
      },
    ]);
    const events = await test.db.$queryRaw<{ payload: { planId: string } }[]>`
      SELECT payload FROM outbox_events WHERE type = 'plan.divergence'`;
    expect(events.map((event) => event.payload.planId)).toContain(planId);
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
});
