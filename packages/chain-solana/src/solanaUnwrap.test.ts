import { NATIVE_MINT } from '@solana/spl-token';
import { VersionedTransaction } from '@solana/web3.js';
import type { Keypair } from '@solana/web3.js';
import { startSolanaBed, wrapSol } from '@yieldrouter/chain-beds';
import type { SolanaBed } from '@yieldrouter/chain-beds';
import { newPlanId } from '@yieldrouter/schemas';
import { bedAdapter, onlyLeg, signLeg } from './testing/bedAdapter';

// The gas top-up's unwrap leg on the bed: the owner's wrapped SOL account closed to the owner,
// and its receipt the wrapped SOL the close removed — never the plan's figure.
let bed: SolanaBed;
beforeAll(async () => {
  bed = await startSolanaBed();
});
afterAll(() => bed.stop());

const adapter = () => bedAdapter(bed);
const WSOL = NATIVE_MINT.toBase58();

async function unwrap(owner: Keypair, amount: bigint) {
  const planId = newPlanId();
  const leg = onlyLeg(
    (await adapter().buildSolanaUnwrap?.({
      planId,
      owner: owner.publicKey.toBase58(),
      wrappedNative: WSOL,
      amount,
      summary: 'unwrap',
    })) ?? { status: 'blocked', blockers: [] },
  );
  expect(leg).toMatchObject({ action: 'unwrap', settles: true, amountMicros: amount });
  const signed = VersionedTransaction.deserialize(Buffer.from(signLeg(leg, owner), 'base64'));
  const outcome = bed.send(signed);
  if (!outcome.landed) throw new Error(JSON.stringify(outcome.err));
  return { planId, txId: outcome.entry.signature };
}

describe('the Solana unwrap leg', () => {
  it('closes the wrapped SOL account to the owner; the receipt is what it unwrapped', async () => {
    const owner = bed.createFundedKeypair(1_000_000n);
    wrapSol(bed, owner.publicKey, 1_234_567n);
    const rent = bed.svm.minimumBalanceForRentExemption(165n);
    const { planId, txId } = await unwrap(owner, 1_000_000n);
    const receipt = await adapter().readUnwrapReceipt?.({
      txId,
      planId,
      owner: owner.publicKey.toBase58(),
      wrappedNative: WSOL,
    });
    expect(receipt).toMatchObject({ status: 'confirmed', txId, amount: 1_234_567n });
    // Lamports: + the wrapped SOL + the account's rent − the fee.
    expect(bed.svm.getBalance(owner.publicKey.toBase58() as never)).toBe(
      1_000_000n + 1_234_567n + rent - 5_000n,
    );
    expect(bed.tokenBalance(NATIVE_MINT, owner.publicKey)).toBe(0n);
  });

  it('an empty account unwraps nothing: mismatch; another mint is refused', async () => {
    const owner = bed.createFundedKeypair(1_000_000n);
    wrapSol(bed, owner.publicKey, 0n);
    const { planId, txId } = await unwrap(owner, 1n);
    const query = { txId, planId, owner: owner.publicKey.toBase58(), wrappedNative: WSOL };
    expect(await adapter().readUnwrapReceipt?.(query)).toMatchObject({ status: 'mismatch' });
    await expect(
      adapter().readUnwrapReceipt?.({ ...query, wrappedNative: bed.usdcMint }),
    ).rejects.toMatchObject({ field: 'wrappedNative' });
  });
});
