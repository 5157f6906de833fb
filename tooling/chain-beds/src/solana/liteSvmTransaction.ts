import type { LiteSVM } from 'litesvm';
import type { VersionedTransaction } from '@solana/web3.js';

/** The @solana/kit transaction shape litesvm's `sendTransaction` takes. */
export type LiteSvmTransaction = Parameters<LiteSVM['sendTransaction']>[0];

/**
 * A web3.js 1.x transaction as litesvm's kit `Transaction`: the message bytes plus one signature
 * slot per required signer, in the message's signer order (kit re-encodes them in that order).
 * Missing signatures stay as zero bytes so litesvm's sigverify rejects them like a node would.
 *
 * @example
 * svm.sendTransaction(toLiteSvmTransaction(VersionedTransaction.deserialize(wire)));
 */
export function toLiteSvmTransaction(transaction: VersionedTransaction): LiteSvmTransaction {
  const { header, staticAccountKeys } = transaction.message;
  const signatures: Record<string, Uint8Array> = {};
  for (let index = 0; index < header.numRequiredSignatures; index += 1) {
    const signer = staticAccountKeys[index];
    if (!signer) throw new Error('transaction: fewer account keys than required signatures');
    signatures[signer.toBase58()] = transaction.signatures[index] ?? new Uint8Array(64);
  }
  // kit brands these types; the bytes are exactly what kit's own decoder would produce.
  return {
    messageBytes: transaction.message.serialize(),
    signatures,
  } as unknown as LiteSvmTransaction;
}
