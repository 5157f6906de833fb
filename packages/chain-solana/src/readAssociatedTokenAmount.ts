import { ACCOUNT_SIZE, AccountLayout, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import type { Connection, PublicKey } from '@solana/web3.js';
import { SolanaBadResponseError } from './describeRpcFailure';
import { associatedTokenAccount } from './tokenAccounts';

/**
 * The tokens of `mint` in `owner`'s associated token account (classic SPL Token program): the
 * one account a venue leg redeems from. Receipts the owner keeps in any other token account are
 * not counted, since the leg cannot spend them; 0n when the account does not exist (a real
 * reading). Throws on RPC failure; `SolanaBadResponseError` when the account at that address is
 * not the owner's token account for `mint`.
 *
 * @example
 * const held = await readAssociatedTokenAmount(connection, owner, receiptMint);
 */
export async function readAssociatedTokenAmount(
  connection: Connection,
  owner: PublicKey,
  mint: PublicKey,
): Promise<bigint> {
  const account = associatedTokenAccount(owner, mint);
  const info = await connection.getAccountInfo(account, 'confirmed');
  if (!info) return 0n;
  if (!info.owner.equals(TOKEN_PROGRAM_ID) || info.data.length < ACCOUNT_SIZE) {
    throw new SolanaBadResponseError(`${account.toBase58()} is not a token account`);
  }
  const decoded = AccountLayout.decode(info.data);
  if (!decoded.mint.equals(mint) || !decoded.owner.equals(owner)) {
    throw new SolanaBadResponseError(
      `${account.toBase58()} is not ${owner.toBase58()}'s associated account for ${mint.toBase58()}`,
    );
  }
  return decoded.amount;
}
