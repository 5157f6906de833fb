import { PublicKey } from '@solana/web3.js';
import { parsePublicKey } from '../parsePublicKey';
import { associatedTokenAccount } from '../tokenAccounts';
import type { CctpSolanaPrograms } from './cctpSolanaPrograms';

/**
 * Where a CCTP burn towards Solana must mint for `owner`: their USDC associated token account
 * (the program mints to a token account, not to a wallet), as base58 and as the burn's bytes32.
 * Undefined when `owner` or `usdcMint` is not a Solana key.
 *
 * @example
 * cctpSolanaMintRecipient(owner, usdcMint)?.bytes32 // 0x… (32 bytes)
 */
export function cctpSolanaMintRecipient(
  owner: string,
  usdcMint: string,
): { readonly tokenAccount: string; readonly bytes32: `0x${string}` } | undefined {
  const wallet = parsePublicKey(owner);
  const mint = parsePublicKey(usdcMint);
  if (!wallet || !mint) return undefined;
  const account = associatedTokenAccount(wallet, mint);
  return { tokenAccount: account.toBase58(), bytes32: `0x${account.toBuffer().toString('hex')}` };
}

/** A bytes32 (0x + 64 hex) as the Solana address it names. */
export function solanaAddressOfBytes32(bytes32: string): string {
  return new PublicKey(Buffer.from(bytes32.slice(2), 'hex')).toBase58();
}

/**
 * The two CCTP v2 program ids from settings.
 *
 * @throws Error when either is not a Solana key (a deployment mistake).
 */
export function parseCctpSolanaPrograms(
  tokenMessengerMinter: string,
  messageTransmitter: string,
): CctpSolanaPrograms {
  const tmm = parsePublicKey(tokenMessengerMinter);
  const mt = parsePublicKey(messageTransmitter);
  if (!tmm || !mt) throw new Error('CCTP Solana program ids: must be base58 public keys');
  return { tokenMessengerMinter: tmm, messageTransmitter: mt };
}
