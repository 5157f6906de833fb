import type { MessageAccountKeys, PublicKey, TokenBalance } from '@solana/web3.js';
import { SolanaBadResponseError } from './describeRpcFailure';

/** Which token balances of a transaction to add up. */
export interface TokenBalanceFilter {
  readonly mint: PublicKey;
  /** Entries whose `owner` is this key… */
  readonly owner?: PublicKey;
  /** …or whose account is this one. */
  readonly account?: PublicKey;
}

function amountOf(balance: TokenBalance): bigint {
  const { amount } = balance.uiTokenAmount;
  if (!/^\d+$/.test(amount))
    throw new SolanaBadResponseError(`token amount ${amount} is not an integer`);
  return BigInt(amount);
}

function total(
  balances: readonly TokenBalance[],
  keys: MessageAccountKeys,
  filter: TokenBalanceFilter,
): bigint {
  let sum = 0n;
  for (const balance of balances) {
    if (balance.mint !== filter.mint.toBase58()) continue;
    const address = keys.get(balance.accountIndex);
    if (!address)
      throw new SolanaBadResponseError(`token balance of unknown account ${balance.accountIndex}`);
    const byOwner = filter.owner !== undefined && balance.owner === filter.owner.toBase58();
    const byAccount = filter.account !== undefined && address.equals(filter.account);
    if (byOwner || byAccount) sum += amountOf(balance);
  }
  return sum;
}

/**
 * post − pre of the matching token balances of a transaction (base units). An account absent
 * before (created by the transaction) counts as 0, as nodes omit it from `preTokenBalances`.
 */
export function tokenBalanceDelta(
  meta: { preTokenBalances?: TokenBalance[] | null; postTokenBalances?: TokenBalance[] | null },
  keys: MessageAccountKeys,
  filter: TokenBalanceFilter,
): bigint {
  return (
    total(meta.postTokenBalances ?? [], keys, filter) -
    total(meta.preTokenBalances ?? [], keys, filter)
  );
}
