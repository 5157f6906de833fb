import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { PublicKey } from '@solana/web3.js';
import { startSolanaBed } from '@yieldrouter/chain-beds';
import type { SolanaBed } from '@yieldrouter/chain-beds';
import { newPlanId } from '@yieldrouter/schemas';
import type { ChainAdapter } from '@yieldrouter/schemas';
import { TEST_ROUTER, bedAdapter, onlyLeg, signLeg } from './testing/bedAdapter';

let bed: SolanaBed;
let adapter: ChainAdapter;
beforeAll(async () => {
  bed = await startSolanaBed();
  adapter = bedAdapter(bed, { broadcastEnabled: true });
});
afterAll(() => bed.stop());

const router = { kind: 'router' } as const;

/** The owner's wallet: build → sign locally → broadcast through the adapter. */
async function deposit(owner: ReturnType<SolanaBed['createFundedKeypair']>, amountMicros: bigint) {
  const planId = newPlanId();
  const leg = onlyLeg(
    await adapter.buildDeposit({
      planId,
      owner: owner.publicKey.toBase58(),
      amountMicros,
      target: router,
    }),
  );
  const submitted = await adapter.broadcast({ transaction: signLeg(leg, owner) });
  if (submitted.status !== 'submitted') throw new Error(JSON.stringify(submitted));
  return { planId, leg, txId: submitted.txId };
}

describe('a Solana deposit into the router, end to end', () => {
  it('is built unsigned, signed by the owner, executed in litesvm and read back confirmed', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 10_000_000n);
    const vaultBefore = bed.usdcBalance(TEST_ROUTER.yieldRouter);

    const { planId, leg, txId } = await deposit(owner, 2_500_000n);
    expect(leg).toMatchObject({
      chain: 'solana',
      action: 'deposit',
      settles: true,
      planId,
      amountMicros: 2_500_000n,
      summary: expect.stringContaining('2.5 USDC'),
    });

    const receipt = await adapter.readReceipt({
      txId,
      planId,
      owner: owner.publicKey.toBase58(),
      action: 'deposit',
      target: router,
    });
    expect(receipt).toEqual({
      status: 'confirmed',
      txId,
      planId,
      amountMicros: 2_500_000n,
      shares: null,
      block: String(bed.transaction(txId)?.slot),
    });
    expect(bed.usdcBalance(owner.publicKey)).toBe(7_500_000n);
    expect(bed.usdcBalance(TEST_ROUTER.yieldRouter) - vaultBefore).toBe(2_500_000n);
    const vault = getAssociatedTokenAddressSync(
      new PublicKey(bed.usdcMint),
      new PublicKey(TEST_ROUTER.yieldRouter),
      true,
    );
    expect(bed.transaction(txId)?.transaction.message.staticAccountKeys).toContainEqual(vault);
  });

  it('reads the exact amount again when the vault already holds USDC', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 1_000_000n);
    await deposit(owner, 400_000n);
    const { planId, txId } = await deposit(owner, 333_333n);

    const receipt = await adapter.readReceipt({
      txId,
      planId,
      owner: owner.publicKey.toBase58(),
      action: 'deposit',
      target: router,
    });
    expect(receipt).toMatchObject({ status: 'confirmed', amountMicros: 333_333n });
    expect(bed.usdcBalance(owner.publicKey)).toBe(266_667n);
  });
});
