import {
  ACCOUNT_SIZE,
  AccountLayout,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import type { Connection, PublicKey } from '@solana/web3.js';
import { SolanaBadResponseError } from './describeRpcFailure';

const TOKEN_PROGRAMS = [TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID];

/**
 * The sum of `owner`'s token accounts for `mint`, in base units: one `getTokenAccountsByOwner`
 * (base64), each account decoded and checked (token program, mint and owner as asked). A wallet
 * with no account for the mint holds 0n, which is a real reading, not a fallback.
 * Throws on RPC failure; `SolanaBadResponseError` when an account is not what was asked for.
 *
 * @example
 * const micros = await readTokenTotal(connection, owner, usdcMint);
 */
export async function readTokenTotal(
  connection: Connection,
  owner: PublicKey,
  mint: PublicKey,
): Promise<bigint> {
  const { value } = await connection.getTokenAccountsByOwner(owner, { mint }, 'confirmed');
  let total = 0n;
  for (const { pubkey, account } of value) {
    const data = account.data;
    if (
      !TOKEN_PROGRAMS.some((program) => program.equals(account.owner)) ||
      data.length < ACCOUNT_SIZE
    ) {
      throw new SolanaBadResponseError(`${pubkey.toBase58()} is not a token account`);
    }
    const decoded = AccountLayout.decode(data);
    if (!decoded.mint.equals(mint) || !decoded.owner.equals(owner)) {
      throw new SolanaBadResponseError(`${pubkey.toBase58()} is not ${owner.toBase58()}'s account`);
    }
    total += decoded.amount;
  }
  return total;
}
