import request from 'supertest';
import { VersionedTransaction } from '@solana/web3.js';
import type { Keypair } from '@solana/web3.js';
import { deployYieldRouter, startSolanaBed } from '@yieldrouter/chain-beds/solana';
import type { SolanaBed, SolanaRouterDeployment } from '@yieldrouter/chain-beds/solana';
import type { RunningKeeper } from '@yieldrouter/jobs';
import { verifyLedger } from '@yieldrouter/ledger';
import { PlanDocument, PositionDocument, StoredPlanDocument } from '@yieldrouter/schemas';
import type { TestApp } from './testing/startTestApp';
import { solanaBedSettings } from './testing/solanaBedSettings';
import { settlementWatchKeeperSettings, startInApiKeeper } from './testing/startInApiKeeper';
import { startTestApp, testKeys } from './testing/startTestApp';

// Money routed into our Solana router comes back out of it: the route leg is the router
// program's `deposit` (it credits the owner's position PDA), so the withdrawal leg, the program's
// `withdraw`, pays it back. Both legs are signed by the owner's bed key, executed through the
// API and settled by the keeper from their receipts; the books follow the chain exactly.

let solana: SolanaBed;
let router: SolanaRouterDeployment;
let t: TestApp;
let keeper: RunningKeeper | undefined;
beforeAll(async () => {
  solana = await startSolanaBed();
  router = deployYieldRouter(solana);
  t = await startTestApp({
    ...solanaBedSettings(solana, router),
    SVC_SOLANA_EXECUTION_ENABLED: 'true',
    SVC_SOLANA_BROADCAST_ENABLED: 'true',
    SVC_API_KEYS: JSON.stringify([
      { key: testKeys.owner, role: 'owner', wallets: ['*'] },
      { key: testKeys.keeper, role: 'keeper', wallets: ['*'] },
    ]),
    ...settlementWatchKeeperSettings,
    SVC_KEEPER_OUTBOX_RELAY_EVERY_MS: '0',
    SVC_KEEPER_WEBHOOK_DELIVERY_EVERY_MS: '0',
  });
  keeper = await startInApiKeeper(t);
});
afterAll(async () => {
  await keeper?.close();
  await t?.close();
  await solana?.stop();
});

const post = (path: string, body: object) =>
  request(t.app).post(`/api/v1${path}`).set('X-API-Key', testKeys.owner).send(body);

const position = async (wallet: string) =>
  PositionDocument.parse(
    (
      await request(t.app)
        .get(`/api/v1/wallets/${wallet}/position`)
        .set('X-API-Key', testKeys.owner)
        .expect(200)
    ).body,
  );

/** The owner's wallet signs the plan's only leg with its bed key; the API broadcasts it. */
async function signAndExecute(plan: PlanDocument, owner: Keypair): Promise<string> {
  const leg = plan.legs?.[0];
  if (!plan.planId || !leg || plan.legs?.length !== 1) throw new Error(JSON.stringify(plan));
  const transaction = VersionedTransaction.deserialize(
    Buffer.from(String(leg.transaction), 'base64'),
  );
  // The leg calls our router program itself; the token program only runs inside it.
  const keys = transaction.message.getAccountKeys();
  const programs = transaction.message.compiledInstructions.map((instruction) =>
    keys.get(instruction.programIdIndex)?.toBase58(),
  );
  expect(programs).toContain(router.programId);
  expect(programs).not.toContain('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
  transaction.sign([owner]);
  const executed = await request(t.app)
    .post('/api/v1/svc/strategies/deposit/execute')
    .send({
      planId: plan.planId,
      signedTransaction: Buffer.from(transaction.serialize()).toString('base64'),
    })
    .expect(200);
  return String(executed.body.txId);
}

/** Waits for the keeper's settlement watch to settle the plan's leg. */
async function settled(planId: string) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const stored = StoredPlanDocument.parse(
      (await request(t.app).get(`/api/v1/svc/plans/${planId}`).expect(200)).body,
    );
    if (stored.legs[0]?.status !== 'submitted') return stored;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`plan ${planId} was not settled`);
}

it('route → owner signs → execute → keeper settles; withdraw through the program pays it back', async () => {
  const owner = solana.createFundedKeypair();
  const wallet = owner.publicKey.toBase58();
  solana.mintUsdc(owner.publicKey, 10_000_000n);
  const vaultBefore = solana.usdcBalance(router.yieldRouter);

  // Route 4 USDC into the router: prepared, nothing credited until the chain says so.
  const route = PlanDocument.parse(
    (
      await post(`/wallets/${wallet}/route`, {
        amountMicros: '4000000',
        token: 'USDC',
        chain: 'solana',
      }).expect(200)
    ).body,
  );
  expect(route).toMatchObject({ status: 'prepared', ownerMustSign: true });
  expect(await position(wallet)).toMatchObject({ liquidMicros: '0', pendingInMicros: '4000000' });

  const depositTx = await signAndExecute(route, owner);
  expect(solana.transaction(depositTx)?.logMessages).toContain(
    `Program log: svc:${route.planId} deposit amount=4000000`,
  );
  expect(await settled(route.planId ?? '')).toMatchObject({
    legs: [{ status: 'confirmed', txId: depositTx }],
  });
  expect(solana.usdcBalance(owner.publicKey)).toBe(6_000_000n);
  expect(solana.usdcBalance(router.yieldRouter) - vaultBefore).toBe(4_000_000n);
  expect(await position(wallet)).toMatchObject({ liquidMicros: '4000000', pendingInMicros: '0' });

  // Withdraw all of it: reserved at once, debited when the program's withdraw settles.
  const exit = PlanDocument.parse(
    (await post(`/wallets/${wallet}/withdraw`, { amountMicros: '4000000' }).expect(200)).body,
  );
  expect(await position(wallet)).toMatchObject({
    liquidMicros: '0',
    pendingOutMicros: '4000000',
  });
  const withdrawTx = await signAndExecute(exit, owner);
  expect(solana.transaction(withdrawTx)?.logMessages).toContain(
    `Program log: svc:${exit.planId} withdraw amount=4000000`,
  );
  expect(await settled(exit.planId ?? '')).toMatchObject({
    legs: [{ status: 'confirmed', txId: withdrawTx }],
  });
  expect(solana.usdcBalance(owner.publicKey)).toBe(10_000_000n);
  expect(solana.usdcBalance(router.yieldRouter)).toBe(vaultBefore);
  expect(await position(wallet)).toMatchObject({
    liquidMicros: '0',
    pendingInMicros: '0',
    pendingOutMicros: '0',
  });

  // The journal: liquid is credited by the deposit's receipt; the withdrawal reserves it
  // (liquid → pending_out) and its receipt pays it out to the chain.
  const postings = await t.db.prisma.posting.findMany({
    where: { account: { wallet } },
    include: { entry: true, account: true },
    orderBy: { id: 'asc' },
  });
  expect(
    postings
      .filter((posting) => posting.amountMicros !== 0n)
      .map(({ entry, account, amountMicros }) => [
        entry.planId,
        entry.txId,
        account.bucket,
        amountMicros,
      ]),
  ).toEqual([
    [route.planId, null, 'pending_in', 4_000_000n],
    [route.planId, depositTx, 'pending_in', -4_000_000n],
    [route.planId, depositTx, 'liquid', 4_000_000n],
    [exit.planId, null, 'liquid', -4_000_000n],
    [exit.planId, null, 'pending_out', 4_000_000n],
    [exit.planId, withdrawTx, 'pending_out', -4_000_000n],
  ]);
  expect((await verifyLedger(t.db.prisma)).problems).toEqual([]);
});
