import request from 'supertest';
import type { Keypair } from '@solana/web3.js';
import type { SolanaBed, SolanaRouterDeployment } from '@yieldrouter/chain-beds/solana';
import { verifyLedger } from '@yieldrouter/ledger';
import { PlanDocument, PositionDocument } from '@yieldrouter/schemas';
import type { TestApp } from './testing/startTestApp';
import { testKeys } from './testing/startTestApp';
import { settledPlan, signAndExecuteLeg, startSolanaRouterApp } from './testing/solanaRouterApp';
import type { SolanaRouterApp } from './testing/solanaRouterApp';

// Money routed into our Solana router comes back out of it: the route leg is the router
// program's `deposit` (it credits the owner's position PDA), so the withdrawal leg, the program's
// `withdraw`, pays it back. Both legs are signed by the owner's bed key, executed through the
// API and settled by the keeper from their receipts; the books follow the chain exactly.

let solana: SolanaBed;
let router: SolanaRouterDeployment;
let t: TestApp;
let stack: SolanaRouterApp | undefined;
beforeAll(async () => {
  stack = await startSolanaRouterApp();
  ({ solana, router, t } = stack);
});
afterAll(() => stack?.close());

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

/**
 * The owner signs and executes the plan's leg, which must call our router program's
 * `instruction` itself (the token program only runs inside it); the keeper settles it.
 */
async function runThroughRouter(
  plan: PlanDocument,
  owner: Keypair,
  instruction: 'deposit' | 'withdraw',
): Promise<string> {
  const { planId, txId, transaction } = await signAndExecuteLeg(t, plan, owner);
  const keys = transaction.message.getAccountKeys();
  const programs = transaction.message.compiledInstructions.map((compiled) =>
    keys.get(compiled.programIdIndex)?.toBase58(),
  );
  expect(programs).toContain(router.programId);
  expect(programs).not.toContain('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
  expect(solana.transaction(txId)?.logMessages).toContain(
    `Program log: svc:${planId} ${instruction} amount=${plan.amountMicros}`,
  );
  expect(await settledPlan(t, planId)).toMatchObject({ legs: [{ status: 'confirmed', txId }] });
  return txId;
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

  const depositTx = await runThroughRouter(route, owner, 'deposit');
  expect(solana.usdcBalance(owner.publicKey)).toBe(6_000_000n);
  expect(solana.usdcBalance(router.yieldRouter) - vaultBefore).toBe(4_000_000n);
  expect(await position(wallet)).toMatchObject({ liquidMicros: '4000000', pendingInMicros: '0' });

  // Withdraw all of it: reserved at once, paid out when the program's withdraw settles.
  const exit = PlanDocument.parse(
    (await post(`/wallets/${wallet}/withdraw`, { amountMicros: '4000000' }).expect(200)).body,
  );
  expect(await position(wallet)).toMatchObject({
    liquidMicros: '0',
    pendingOutMicros: '4000000',
  });
  const withdrawTx = await runThroughRouter(exit, owner, 'withdraw');
  expect(solana.usdcBalance(owner.publicKey)).toBe(10_000_000n);
  expect(solana.usdcBalance(router.yieldRouter)).toBe(vaultBefore);
  expect(await position(wallet)).toMatchObject({
    liquidMicros: '0',
    pendingInMicros: '0',
    pendingOutMicros: '0',
  });

  // The journal: liquid is credited by the deposit's receipt; the withdrawal reserves it
  // (liquid → pending_out) and its receipt pays it out to the chain.
  const postings = await t.db.posting.findMany({
    where: { account: { wallet } },
    include: { entry: true, account: true },
    orderBy: { id: 'asc' },
  });
  expect(
    postings.map(({ entry, account, amountMicros }) => [
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
  expect((await verifyLedger(t.db)).problems).toEqual([]);
});
