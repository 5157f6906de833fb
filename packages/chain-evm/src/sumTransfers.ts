import { isAddressEqual } from 'viem';
import type { Address } from 'viem';
import { erc20Abi } from './abis';
import { decodeEvmLog } from './decodeEvmLog';
import type { EvmLog } from './evmRpc';

/**
 * The sum of `token`'s ERC-20 Transfer logs whose (from, to) `match` accepts; logs of other
 * contracts or events are ignored.
 *
 * @example
 * sumTransfers(receipt.logs, usdc, (from, to) => isAddressEqual(to, owner)) // 5_000_000n
 */
export function sumTransfers(
  logs: readonly EvmLog[],
  token: Address,
  match: (from: Address, to: Address) => boolean,
): bigint {
  let total = 0n;
  for (const log of logs) {
    if (!isAddressEqual(log.address, token)) continue;
    const event = decodeEvmLog(erc20Abi, log);
    if (event?.eventName === 'Transfer' && match(event.args.from, event.args.to)) {
      total += event.args.value;
    }
  }
  return total;
}
