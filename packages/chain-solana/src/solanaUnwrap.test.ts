import {
  NATIVE_MINT,
  TOKEN_PROGRAM_ID,
  createAssociatedTokenAccountIdempotentInstruction,
  createSyncNativeInstruction,
  decodeSyncNativeInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { SystemInstruction, TransactionMessage } from '@solana/web3.js';
import { VersionedTransaction } from '@solana/web3.js';
import type { Keypair, TransactionInstruction } from '@solana/web3.js';
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

/** Builds the owner's wrap or unwrap leg, signs it and lands it on the bed. */
async function sendLeg(action: 'wrap' | 'unwrap', owner: Keypair, amount: bigint) {
  const planId = newPlanId();
  const build = action === 'wrap' ? adapter().buildSolanaWrap : adapter().buildSolanaUnwrap;
  const leg = onlyLeg(
    (await build?.({
      planId,
      owner: owner.publicKey.toBase58(),
      wrappedNative: WSOL,
      amount,
      summary: action,
    })) ?? { status: 'blocked', blockers: [] },
  );
  expect(leg).toMatchObject({ action, settles: true, amountMicros: amount });
  const signed = VersionedTransaction.deserialize(Buffer.from(signLeg(leg, owner), 'base64'));
  const outcome = bed.send(signed);
  if (!outcome.landed) throw new Error(JSON.stringify(outcome.err));
  return { planId, txId: outcome.entry.signature, signed };
}
const unwrap = (owner: Keypair, amount: bigint) => sendLeg('unwrap', owner, amount);
const wrap = (owner: Keypair, amount: bigint) => sendLeg('wrap', owner, amount);

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

describe('the Solana wrap leg (a swap from SOL)', () => {
  it("encodes as @solana/spl-token's builders: idempotent account, lamports in, SyncNative", async () => {
    const owner = bed.createFundedKeypair(50_000_000n);
    const { signed } = await wrap(owner, 1_000_000n);
    const instructions = TransactionMessage.decompile(signed.message).instructions;
    const account = getAssociatedTokenAddressSync(NATIVE_MINT, owner.publicKey, true);
    const plain = (instruction: TransactionInstruction) => ({
      programId: instruction.programId.toBase58(),
      keys: instruction.keys.map((key) => key.pubkey.toBase58()),
      data: Buffer.from(instruction.data).toString('hex'),
    });
    const ata = createAssociatedTokenAccountIdempotentInstruction(
      owner.publicKey,
      account,
      owner.publicKey,
      NATIVE_MINT,
    );
    expect(instructions.map(plain)).toEqual(
      expect.arrayContaining([plain(ata), plain(createSyncNativeInstruction(account))]),
    );
    const sync = instructions.find((instruction) => instruction.programId.equals(TOKEN_PROGRAM_ID));
    expect(decodeSyncNativeInstruction(sync as TransactionInstruction).keys.account.pubkey).toEqual(
      account,
    );
    const transfer = instructions.find(
      (instruction) => instruction.programId.toBase58() === '11111111111111111111111111111111',
    );
    expect(SystemInstruction.decodeTransfer(transfer as TransactionInstruction)).toMatchObject({
      toPubkey: account,
      lamports: 1_000_000n,
    });
  });

  it('wraps into a new or an existing account; the receipt is what it wrapped', async () => {
    const owner = bed.createFundedKeypair(50_000_000n);
    const first = await wrap(owner, 1_000_000n);
    const second = await wrap(owner, 234_567n);
    const query = { owner: owner.publicKey.toBase58(), wrappedNative: WSOL };
    expect(
      await adapter().readWrapReceipt?.({ ...query, txId: first.txId, planId: first.planId }),
    ).toMatchObject({ status: 'confirmed', amount: 1_000_000n });
    expect(
      await adapter().readWrapReceipt?.({ ...query, txId: second.txId, planId: second.planId }),
    ).toMatchObject({ status: 'confirmed', amount: 234_567n });
    expect(bed.tokenBalance(NATIVE_MINT, owner.publicKey)).toBe(1_234_567n);
  });
});
