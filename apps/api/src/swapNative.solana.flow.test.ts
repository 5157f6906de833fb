import request from 'supertest';
import { PublicKey } from '@solana/web3.js';
import { readAccountBalance, verifyLedger } from '@yieldrouter/ledger';
import { SwapPlanDocument } from '@yieldrouter/schemas';
import { wrapSol } from '@yieldrouter/chain-beds/solana';
import { freshSolanaKey } from './testing/solanaBedSettings';
import { settledPlan, signAndExecuteLeg } from './testing/solanaRouterApp';
import type { SolanaRouterApp } from './testing/solanaRouterApp';
import { startJupiterBedApp } from './testing/startJupiterBedApp';
import { seedLiquid } from './testing/swapBedHelpers';

// Issue 41: a Solana swap plan into SOL by its symbol, as aggregators take it: the Jupiter swap
// buys wrapped SOL over the bed's USDC/SOL cp_pool, the unwrap leg closes the owner's wrapped SOL
// account, and the keeper settles both from their receipts (the lamports from the close).
const FEE_RECIPIENT = freshSolanaKey();
const ROUTED = 20_000_000n;
const NATIVE_MINT = new PublicKey('So11111111111111111111111111111111111111112');

let app: SolanaRouterApp;

beforeAll(async () => {
  ({ app } = await startJupiterBedApp(FEE_RECIPIENT, { solPool: true }));
  app.solana.mintUsdc(FEE_RECIPIENT, 1n);
}, 90_000);
afterAll(() => app.close());

/** The Jupiter swap plan route on Solana: `change` over a USDC → SOL body. */
const planSwap = (change: Record<string, string>) =>
  request(app.t.app)
    .post('/api/v1/svc/jupiter/plan')
    .send({
      chain: 'solana',
      inputToken: 'USDC',
      outputToken: 'SOL',
      amountInMicros: '1000000',
      ...change,
    });

it('swaps USDC into SOL: swap then close, the SOL settled from the close receipt', async () => {
  const owner = app.solana.createFundedKeypair(10_000_000n);
  const wallet = owner.publicKey.toBase58();
  app.solana.mintUsdc(owner.publicKey, ROUTED);
  await seedLiquid(app.t, wallet, 'solana', ROUTED);
  const document = SwapPlanDocument.parse((await planSwap({ owner: wallet }).expect(200)).body);
  expect(document).toMatchObject({ status: 'prepared', outputToken: 'WSOL' });
  expect(document.legs?.map((leg) => [leg.action, leg.settles])).toEqual([
    ['swap', true],
    ['unwrap', true],
  ]);
  const min = BigInt(document.minAmountOutMicros ?? '0');
  const lamports = () => app.solana.svm.getBalance(wallet as never) ?? 0n;
  const before = lamports();

  await signAndExecuteLeg(app.t, document, owner, 0);
  const afterSwap = await settledPlan(app.t, document.planId ?? '', 0);
  expect(afterSwap.legs[0]?.status).toBe('confirmed');
  const bought = BigInt(afterSwap.legs[0]?.settledAmountMicros ?? '0');
  expect(bought >= min).toBe(true);
  await signAndExecuteLeg(app.t, document, owner, 1);
  const stored = await settledPlan(app.t, document.planId ?? '', 1);
  expect(stored.legs[1]).toMatchObject({
    action: 'unwrap',
    status: 'confirmed',
    settledAmountMicros: bought.toString(),
  });
  // On chain: two fees paid; the swap's account rent paid, then returned by the close.
  expect(lamports() - before).toBe(bought - 10_000n);
  const books = (asset: string) =>
    readAccountBalance(app.t.db, { wallet, chain: 'solana', bucket: 'liquid', asset });
  expect(await books(NATIVE_MINT.toBase58())).toBe(0n);
  expect(await books('native')).toBe(bought);
  expect(await verifyLedger(app.t.db)).toMatchObject({ ok: true, problems: [] });
});

it('swaps SOL into USDC: wrap then swap, each settled from its receipt', async () => {
  const owner = app.solana.createFundedKeypair(100_000_000n);
  const wallet = owner.publicKey.toBase58();
  const wrapped = 10_000_000n;
  // The service fee is paid in the input token: the recipient holds a wrapped SOL account.
  wrapSol(app.solana, new PublicKey(FEE_RECIPIENT), 0n);
  const body = { owner: wallet, inputToken: 'SOL', outputToken: 'USDC' };
  const document = SwapPlanDocument.parse(
    (await planSwap({ ...body, amountInMicros: `${wrapped}` }).expect(200)).body,
  );
  expect(document).toMatchObject({ status: 'prepared', inputToken: 'WSOL', outputToken: 'USDC' });
  expect(document.legs?.map((leg) => [leg.action, leg.settles])).toEqual([
    ['wrap', true],
    ['swap', true],
  ]);
  const min = BigInt(document.minAmountOutMicros ?? '0');
  const usdc = () => app.solana.usdcBalance(owner.publicKey);

  await signAndExecuteLeg(app.t, document, owner, 0);
  const afterWrap = await settledPlan(app.t, document.planId ?? '', 0);
  // The wrap books what the account's wrapped SOL grew by (not its rent), never the plan's figure.
  expect(afterWrap.legs[0]).toMatchObject({
    action: 'wrap',
    status: 'confirmed',
    settledAmountMicros: `${wrapped}`,
  });
  expect(app.solana.tokenBalance(NATIVE_MINT, owner.publicKey)).toBe(wrapped);
  await signAndExecuteLeg(app.t, document, owner, 1);
  const stored = await settledPlan(app.t, document.planId ?? '', 1);
  expect(stored.legs[1]?.status).toBe('confirmed');
  const bought = BigInt(stored.legs[1]?.settledAmountMicros ?? '0');
  expect(bought >= min).toBe(true);
  expect(usdc()).toBe(bought);
  expect(app.solana.tokenBalance(NATIVE_MINT, owner.publicKey)).toBe(0n);
  const books = (asset: string) =>
    readAccountBalance(app.t.db, { wallet, chain: 'solana', bucket: 'liquid', asset });
  expect(await books(NATIVE_MINT.toBase58())).toBe(0n);
  expect(await books('native')).toBe(0n);
  expect(await books('USDC')).toBe(bought);
  expect(await verifyLedger(app.t.db)).toMatchObject({ ok: true, problems: [] });
});

it.each(['0', '0.000000001', '1.0000000001'])(
  'SOL in, amountInMicros %s: 400 naming the field, nothing stored',
  async (amount) => {
    const res = await planSwap({
      owner: freshSolanaKey(),
      inputToken: 'SOL',
      outputToken: 'USDC',
      amountInMicros: amount,
    }).expect(400);
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', field: 'body.amountInMicros' });
  },
);
