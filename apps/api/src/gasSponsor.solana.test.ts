import request from 'supertest';
import { PublicKey } from '@solana/web3.js';
import type { Keypair } from '@solana/web3.js';
import { wrapSol } from '@yieldrouter/chain-beds/solana';
import type { SolanaCpPool } from '@yieldrouter/chain-beds/solana';
import type { JupiterFake, JupiterFakeMode } from '@yieldrouter/chain-beds/quotes';
import { computeGasSponsorFee } from '@yieldrouter/fees';
import { readAccountBalance, verifyLedger } from '@yieldrouter/ledger';
import type { AccountRef } from '@yieldrouter/ledger';
import { GasSponsorPlanDocument, SwapPlanDocument } from '@yieldrouter/schemas';
import { freshSolanaKey } from './testing/solanaBedSettings';
import { settledPlan, signAndExecuteLeg } from './testing/solanaRouterApp';
import { startJupiterBedApp } from './testing/startJupiterBedApp';
import type { SolanaRouterApp } from './testing/solanaRouterApp';
import { seedLiquid } from './testing/swapBedHelpers';

// Gas sponsorship on Solana, on the local SVM: a Jupiter swap plan's leg is sized (its fee for
// the message + the rent of the token account it creates), the top-up is priced through the
// Jupiter fake over a USDC/SOL cp_pool, the owner signs the swap leg (gas-sponsor fee in the
// same transaction) and the unwrap leg (close of the wrapped SOL account), and the keeper
// settles both from their receipts into the owner's books, per asset.
const FEE_RECIPIENT = freshSolanaKey();
const RENT = 2_039_280n;
const ROUTED = 20_000_000n;

let app: SolanaRouterApp;
let bedPool: SolanaCpPool;
let fake: JupiterFake;

beforeAll(async () => {
  // 100 USDC per SOL; the plan to size swaps USDC for the bed token of the other pool.
  ({ app, pool: bedPool, fake } = await startJupiterBedApp(FEE_RECIPIENT, { solPool: true }));
  // The fee recipient's USDC account exists: the legs sized below do not create it.
  app.solana.mintUsdc(FEE_RECIPIENT, 1n);
}, 90_000);
afterAll(() => app.close());
afterEach(() => fake.setMode('ok'));

const gasPlan = (owner: Keypair, planId: string) =>
  request(app.t.app)
    .post('/api/v1/svc/gas-sponsor/plan')
    .send({ chain: 'solana', owner: owner.publicKey.toBase58(), planId })
    .expect(200)
    .then((res) => GasSponsorPlanDocument.parse(res.body));

const NATIVE_MINT = new PublicKey('So11111111111111111111111111111111111111112');
const TOKEN_PROGRAM = new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
const ATA_PROGRAM = new PublicKey('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL');
const tokenAccount = (owner: PublicKey, mint: PublicKey) =>
  PublicKey.findProgramAddressSync(
    [owner.toBuffer(), TOKEN_PROGRAM.toBuffer(), mint.toBuffer()],
    ATA_PROGRAM,
  )[0];

/** A wallet with `lamports` and 20 USDC (also in its books), and a swap plan to size. */
async function ownerWithPlan(lamports: bigint) {
  const owner = app.solana.createFundedKeypair(lamports);
  app.solana.mintUsdc(owner.publicKey, ROUTED);
  await seedLiquid(app.t, owner.publicKey.toBase58(), 'solana', ROUTED);
  const plan = SwapPlanDocument.parse(
    (
      await request(app.t.app)
        .post('/api/v1/svc/jupiter/plan')
        .send({
          chain: 'solana',
          owner: owner.publicKey.toBase58(),
          inputToken: 'USDC',
          outputToken: 'BED',
          amountInMicros: '1000000',
        })
        .expect(200)
    ).body,
  );
  expect(plan.status).toBe('prepared');
  return { owner, planId: plan.planId ?? '' };
}

const books = (owner: Keypair, asset?: string): AccountRef => ({
  wallet: owner.publicKey.toBase58(),
  chain: 'solana',
  bucket: 'liquid',
  ...(asset ? { asset } : {}),
});
const balance = (ref: AccountRef) => readAccountBalance(app.t.db, ref);

describe('POST /svc/gas-sponsor/plan on Solana', () => {
  it('sizes the legs (fee + rent), prices the top-up, and settles its legs per asset', async () => {
    const { owner, planId } = await ownerWithPlan(1_000_000n);
    // The top-up's own swap needs no account rent: the wallet has wrapped before.
    wrapSol(app.solana, owner.publicKey, 0n);
    const document = await gasPlan(owner, planId);
    const bedAccount = tokenAccount(owner.publicKey, new PublicKey(bedPool.mintB));
    const gross = BigInt(document.usdcCostMicros ?? '0');
    const fee = computeGasSponsorFee({ grossMicros: gross }).feeMicros;
    expect(document).toMatchObject({
      status: 'prepared',
      chain: 'solana',
      legFees: ['5000'],
      rentPerAccount: RENT.toString(),
      accountsCreated: [bedAccount.toBase58()],
      nativeRequired: (5_000n + RENT).toString(),
      nativeHeld: '1000000',
      nativeNeeded: (5_000n + RENT - 1_000_000n).toString(),
      quoteSource: 'jupiter',
      feeMicros: fee.toString(),
    });
    expect(document.gasUnits).toBeUndefined();
    expect(document.feeLines?.[0]).toMatchObject({
      kind: 'gas_sponsor_fee',
      bps: 50,
      amountMicros: fee.toString(),
    });
    // ~1.04M lamports at 100 USDC per SOL, the fees and slippage on top: about 0.105 USDC.
    expect(gross > 104_428n && gross < 110_000n).toBe(true);
    expect(document.legs?.map((leg) => [leg.action, leg.settles])).toEqual([
      ['swap', true],
      ['unwrap', true],
    ]);

    const feesBefore = await balance({ system: 'fees:protocol' });
    await signAndExecuteLeg(app.t, document, owner, 0);
    const afterSwap = await settledPlan(app.t, document.planId ?? '', 0);
    expect(afterSwap.legs[0]?.status).toBe('confirmed');
    const bought = BigInt(afterSwap.legs[0]?.settledAmountMicros ?? '0');
    expect(bought >= 1_044_280n).toBe(true);
    await signAndExecuteLeg(app.t, document, owner, 1);
    const stored = await settledPlan(app.t, document.planId ?? '', 1);
    // The close unwraps what the swap bought (the account held no wrapped SOL before).
    expect(stored.legs[1]).toMatchObject({
      status: 'confirmed',
      settledAmountMicros: bought.toString(),
    });
    // On chain: the wallet paid two fees and got the account's rent back with the SOL.
    expect(app.solana.svm.getBalance(owner.publicKey.toBase58() as never)).toBe(
      1_000_000n - 10_000n + RENT + bought,
    );
    expect(app.solana.usdcBalance(FEE_RECIPIENT)).toBe(1n + fee);
    expect(await balance(books(owner))).toBe(ROUTED - gross);
    expect((await balance({ system: 'fees:protocol' })) - feesBefore).toBe(fee);
    expect(await balance(books(owner, NATIVE_MINT.toBase58()))).toBe(0n);
    expect(await balance(books(owner, 'native'))).toBe(bought);
    expect(await verifyLedger(app.t.db)).toMatchObject({ ok: true, problems: [] });
  });

  it('a wallet with enough SOL: prepared with no legs and no cost', async () => {
    const { owner, planId } = await ownerWithPlan(10_000_000n);
    const document = await gasPlan(owner, planId);
    expect(document).toMatchObject({ status: 'prepared', nativeNeeded: '0', usdcCostMicros: '0' });
    expect(document.legs).toEqual([]);
  });

  it.each([
    ['http_500', 'quote_unavailable'],
    ['malformed', 'quote_unavailable'],
    ['no_route', 'no_route'],
    ['slow', 'quote_timeout'],
  ] as const)('the source answering %s blocks the plan (%s)', async (mode, code) => {
    const { owner, planId } = await ownerWithPlan(1_000_000n);
    fake.setMode(mode as JupiterFakeMode);
    const document = await gasPlan(owner, planId);
    expect(document.status).toBe('blocked');
    expect(document.blockers?.map((entry) => entry.code)).toEqual([code]);
    expect(document.blockers?.[0]?.details).toMatchObject({ source: 'jupiter' });
    expect(document).toMatchObject({ nativeNeeded: (5_000n + RENT - 1_000_000n).toString() });
    expect(document.usdcCostMicros).toBeUndefined();
  });
});
