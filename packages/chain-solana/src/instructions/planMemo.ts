import { PublicKey, TransactionInstruction } from '@solana/web3.js';

/** The SPL Memo program (v2). */
export const MEMO_PROGRAM_ID = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

/** The memo every leg carries: `svc:<planId>`. `readReceipt` looks for exactly this text. */
export function planMemoText(planId: string): string {
  return `svc:${planId}`;
}

/**
 * A Memo instruction with `svc:<planId>` (no signer accounts: the memo program then checks
 * nothing but UTF-8).
 *
 * @example
 * planMemoInstruction('plan_00112233445566778899aabbccddeeff');
 */
export function planMemoInstruction(planId: string): TransactionInstruction {
  return new TransactionInstruction({
    programId: MEMO_PROGRAM_ID,
    keys: [],
    data: Buffer.from(planMemoText(planId), 'utf8'),
  });
}
