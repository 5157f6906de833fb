import { newPlanId } from '@yieldrouter/schemas';
import type { ChainAdapter } from '@yieldrouter/schemas';
import { bedAdapter, onlyLeg, signLeg, startRouterBed } from './testing/bedAdapter';
import type { RouterBed } from './testing/bedAdapter';

let bed: RouterBed;
let adapter: ChainAdapter;
beforeAll(async () => {
  bed = await startRouterBed();
  adapter = bedAdapter(bed, { broadcastEnabled: true });
});
afterAll(() => bed.stop());

const router = { kind: 'router' } as const;

type Owner = ReturnType<RouterBed['createFundedKeypair']>;

/** The owner's wallet: build → sign locally → broadcast through the adapter. */
async function send(owner: Owner, action: 'deposit' | 'withdraw', amountMicros: bigint) {
  const planId = newPlanId();
  const request = { planId, owner: owner.publicKey.toBase58(), amountMicros, target: router };
  const build =
    action === 'deposit'
      ? await adapter.buildDeposit(request)
      : await adapter.buildWithdraw(request);
  const leg = onlyLeg(build);
  const submitted = await adapter.broadcast({ transaction: signLeg(leg, owner) });
  return { planId, leg, submitted };
}

/** `send`, which must be submitted; the receipt read back. */
async function run(owner: Owner, action: 'deposit' | 'withdraw', amountMicros: bigint) {
  const { planId, leg, submitted } = await send(owner, action, amountMicros);
  if (submitted.status !== 'submitted') throw new Error(JSON.stringify(submitted));
  const { txId } = submitted;
  const receipt = await adapter.readReceipt({
    txId,
    planId,
    owner: owner.publicKey.toBase58(),
    action,
    target: router,
  });
  return { planId, leg, txId, receipt };
}

const deposit = (owner: Owner, amountMicros: bigint) => run(owner, 'deposit', amountMicros);

describe('a Solana deposit into the router, end to end', () => {
  it('is built unsigned, signed by the owner, run by the router program and read back confirmed', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 10_000_000n);
    const vaultBefore = bed.usdcBalance(bed.router.yieldRouter);

    const { planId, leg, txId, receipt } = await deposit(owner, 2_500_000n);
    expect(leg).toMatchObject({
      chain: 'solana',
      action: 'deposit',
      settles: true,
      planId,
      amountMicros: 2_500_000n,
      summary: expect.stringContaining('2.5 USDC'),
    });
    expect(receipt).toEqual({
      status: 'confirmed',
      txId,
      planId,
      amountMicros: 2_500_000n,
      shares: null,
      block: String(bed.transaction(txId)?.slot),
    });
    expect(bed.transaction(txId)?.logMessages).toContain(
      `Program log: svc:${planId} deposit amount=2500000`,
    );
    expect(bed.usdcBalance(owner.publicKey)).toBe(7_500_000n);
    expect(bed.usdcBalance(bed.router.yieldRouter) - vaultBefore).toBe(2_500_000n);
  });

  it('reads the exact amount again when the vault already holds USDC', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 1_000_000n);
    await deposit(owner, 400_000n);
    const { receipt } = await deposit(owner, 333_333n);
    expect(receipt).toMatchObject({ status: 'confirmed', amountMicros: 333_333n });
    expect(bed.usdcBalance(owner.publicKey)).toBe(266_667n);
  });

  it("credits the owner's position: the program's withdraw pays it back, and not a micro more", async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 5_000_000n);
    await deposit(owner, 3_000_000n);
    // Another owner's money in the same vault is not this owner's to take.
    const other = bed.createFundedKeypair();
    bed.mintUsdc(other.publicKey, 4_000_000n);
    await deposit(other, 4_000_000n);

    const first = await run(owner, 'withdraw', 1_000_000n);
    expect(first.receipt).toMatchObject({ status: 'confirmed', amountMicros: 1_000_000n });
    expect(bed.transaction(first.txId)?.logMessages).toContain(
      `Program log: svc:${first.planId} withdraw amount=1000000`,
    );
    expect(bed.usdcBalance(owner.publicKey)).toBe(3_000_000n);

    const over = await send(owner, 'withdraw', 2_000_001n);
    expect(over.submitted).toEqual({
      status: 'rejected',
      reason: expect.stringContaining('custom program error: 0xf'),
    });
    const rest = await run(owner, 'withdraw', 2_000_000n);
    expect(rest.receipt).toMatchObject({ status: 'confirmed', amountMicros: 2_000_000n });
    expect(bed.usdcBalance(owner.publicKey)).toBe(5_000_000n);
    expect((await send(owner, 'withdraw', 1n)).submitted.status).toBe('rejected');
  });
});
