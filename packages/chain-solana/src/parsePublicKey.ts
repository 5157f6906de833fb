import { PublicKey } from '@solana/web3.js';

const BASE58_KEY = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/**
 * A base58 text that decodes to exactly 32 bytes, as a `PublicKey`; undefined otherwise. No RPC.
 *
 * @example
 * parsePublicKey('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')?.toBase58();
 */
export function parsePublicKey(text: string): PublicKey | undefined {
  if (!BASE58_KEY.test(text)) return undefined;
  try {
    return new PublicKey(text);
  } catch {
    return undefined;
  }
}
