import { TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import type { Keypair, TransactionInstruction } from '@solana/web3.js';
import type { SolanaBed } from '@yieldrouter/chain-beds';

/** A landed transaction's logs, or its error and logs (tests drive stand-ins directly). */
export interface BedRun {
  readonly ok: boolean;
  readonly error: string | undefined;
  readonly logs: readonly string[];
}

/**
 * Signs `instructions` with `payer` (fee payer, first signer) and `signers`, and runs them on the
 * bed with preflight; what landed or why not.
 *
 * @example
 * const run = sendOnBed(bed, [instruction], owner);
 */
export function sendOnBed(
  bed: SolanaBed,
  instructions: readonly TransactionInstruction[],
  payer: Keypair,
  signers: readonly Keypair[] = [],
): BedRun {
  const message = new TransactionMessage({
    payerKey: payer.publicKey,
    recentBlockhash: bed.latestBlockhash(),
    instructions: [...instructions],
  }).compileToV0Message();
  const transaction = new VersionedTransaction(message);
  transaction.sign([payer, ...signers]);
  const outcome = bed.send(transaction);
  if (!outcome.landed) {
    return { ok: false, error: JSON.stringify(outcome.err), logs: outcome.logs ?? [] };
  }
  const error = outcome.entry.err === null ? undefined : JSON.stringify(outcome.entry.err);
  return { ok: error === undefined, error, logs: outcome.entry.logMessages ?? [] };
}
