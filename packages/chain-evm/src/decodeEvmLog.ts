import { decodeEventLog } from 'viem';
import type { Abi } from 'viem';
import type { EvmLog } from './evmRpc';

/**
 * The log decoded with `abi`, or undefined for a log of another event or one that does not
 * decode (strict: every field must be present). The caller checks which contract emitted it.
 *
 * @example
 * decodeEvmLog(erc20Abi, log)?.eventName // 'Transfer'
 */
export function decodeEvmLog<const abi extends Abi>(abi: abi, log: EvmLog) {
  try {
    const [signature, ...rest] = log.topics;
    if (!signature) return undefined;
    return decodeEventLog({ abi, topics: [signature, ...rest], data: log.data, strict: true });
  } catch {
    return undefined;
  }
}
