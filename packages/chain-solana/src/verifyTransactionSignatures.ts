import { createPublicKey, verify } from 'node:crypto';
import type { VersionedTransaction } from '@solana/web3.js';

// DER prefix of an Ed25519 SubjectPublicKeyInfo; the raw 32-byte key follows it.
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

function verifies(message: Uint8Array, signer: Uint8Array, signature: Uint8Array): boolean {
  try {
    const key = createPublicKey({
      key: Buffer.concat([ED25519_SPKI_PREFIX, signer]),
      format: 'der',
      type: 'spki',
    });
    return verify(null, message, key, signature);
  } catch {
    return false;
  }
}

/**
 * Why `transaction` is not fully and validly signed, or undefined when every required signer's
 * Ed25519 signature over the message verifies (node:crypto; no private key involved).
 *
 * @example
 * const problem = unsignedReason(VersionedTransaction.deserialize(bytes));
 */
export function unsignedReason(transaction: VersionedTransaction): string | undefined {
  const { header, staticAccountKeys } = transaction.message;
  const required = header.numRequiredSignatures;
  if (required === 0 || transaction.signatures.length !== required) {
    return `expected ${required} signatures, found ${transaction.signatures.length}`;
  }
  const message = transaction.message.serialize();
  for (let index = 0; index < required; index += 1) {
    const signer = staticAccountKeys[index];
    const signature = transaction.signatures[index];
    if (!signer || !signature) return `signature ${index} has no signer`;
    if (signature.every((byte) => byte === 0)) return `missing signature of ${signer.toBase58()}`;
    if (!verifies(message, signer.toBytes(), signature)) {
      return `signature of ${signer.toBase58()} does not verify`;
    }
  }
  return undefined;
}
