import { BASE64 } from '@yieldrouter/schemas';
import { VersionedTransaction } from '@solana/web3.js';
import { InvalidChainInputError } from '@yieldrouter/schemas';

/**
 * Base64 wire bytes as a transaction. Anything else throws `InvalidChainInputError` (field
 * `transaction`); the message never repeats the input.
 *
 * @example
 * const { bytes, transaction } = decodeSolanaWire(signed.transaction);
 */
export function decodeSolanaWire(text: string): {
  bytes: Buffer;
  transaction: VersionedTransaction;
} {
  if (text.length === 0 || !BASE64.test(text)) {
    throw new InvalidChainInputError('transaction', 'transaction: not base64');
  }
  const bytes = Buffer.from(text, 'base64');
  try {
    return { bytes, transaction: VersionedTransaction.deserialize(bytes) };
  } catch {
    throw new InvalidChainInputError('transaction', 'transaction: not a Solana wire transaction');
  }
}
