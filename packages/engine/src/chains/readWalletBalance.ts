import type { AssetBalance, ChainAdapter, WalletBalanceDocument } from '@yieldrouter/schemas';
import { InvalidChainInputError, formatUnits } from '@yieldrouter/schemas';

type BalanceLeg = WalletBalanceDocument['legs'][number];

function toLeg(balance: AssetBalance): BalanceLeg {
  if (balance.status === 'ok') {
    return {
      asset: balance.asset,
      decimals: balance.decimals,
      status: 'ok',
      amount: balance.amount.toString(10),
      display: formatUnits(balance.amount, balance.decimals),
    };
  }
  return {
    asset: balance.asset,
    decimals: balance.decimals,
    status: 'unavailable',
    amount: null,
    display: 'N/A',
    reason: balance.reason,
    detail: balance.detail,
  };
}

/**
 * On-chain balances of one wallet. A leg whose RPC read failed is N/A with its reason; the
 * other legs still answer. A malformed address is a 400 (`InvalidChainInputError`, field
 * `address`) and costs no RPC call.
 */
export async function readWalletBalance(
  adapter: ChainAdapter,
  address: string,
  now: () => Date = () => new Date(),
): Promise<WalletBalanceDocument> {
  const normalized = adapter.normalizeAddress(address);
  if (!normalized) {
    throw new InvalidChainInputError('address', `address: not a valid ${adapter.chain} address`);
  }
  const legs = (await adapter.readBalances(normalized)).map(toLeg);
  return {
    chain: adapter.chain,
    address: normalized,
    complete: legs.every((leg) => leg.status === 'ok'),
    legs,
    asOf: now().toISOString(),
  };
}
