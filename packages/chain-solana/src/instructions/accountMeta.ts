import type { AccountMeta, PublicKey } from '@solana/web3.js';

/**
 * One account of an instruction's account list, in the order and with the flags the program's
 * interface names (read-only, non-signer unless said).
 *
 * @example
 * accountMeta(owner, true, true); // writable signer
 */
export const accountMeta = (
  pubkey: PublicKey,
  isWritable: boolean,
  isSigner = false,
): AccountMeta => ({ pubkey, isSigner, isWritable });

/** A writable account (a signer when said). */
export const writable = (pubkey: PublicKey, isSigner = false): AccountMeta =>
  accountMeta(pubkey, true, isSigner);

/** A read-only, non-signer account. */
export const readonly = (pubkey: PublicKey): AccountMeta => accountMeta(pubkey, false);
