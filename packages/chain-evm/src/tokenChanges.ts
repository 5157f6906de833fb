import type { ChainBalanceChange } from '@yieldrouter/schemas';
import { getAddress } from 'viem';
import type { EvmLog } from './evmRpc';

/** keccak256("Transfer(address,address,uint256)"): ERC-20's Transfer, every token's. */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

const ZERO = '0x0000000000000000000000000000000000000000';

const topicAddress = (topic: string) => getAddress(`0x${topic.slice(26)}`);

/**
 * The token balance changes ERC-20 `Transfer` logs make, per token and account, in the order
 * first seen; mints and burns move the zero address, which is left out. Logs that are not a
 * standard Transfer (three topics, a 32-byte amount) are skipped: an ERC-721 Transfer has four.
 *
 * @example
 * tokenChanges(receipt.logs)
 * // [{ account: owner, asset: usdc, delta: -1_000_000n }, { account: vault, asset: usdc, delta: 1_000_000n }]
 */
export function tokenChanges(logs: readonly EvmLog[]): ChainBalanceChange[] {
  const deltas = new Map<string, { account: string; asset: string; delta: bigint }>();
  const add = (asset: string, account: string, delta: bigint) => {
    if (account === ZERO) return;
    const key = `${asset}:${account}`;
    const entry = deltas.get(key) ?? { account, asset, delta: 0n };
    entry.delta += delta;
    deltas.set(key, entry);
  };
  for (const log of logs) {
    const [topic0, from, to] = log.topics;
    if (log.topics.length !== 3 || topic0?.toLowerCase() !== TRANSFER_TOPIC) continue;
    if (!from || !to || log.data.length !== 66) continue;
    const amount = BigInt(log.data);
    const asset = getAddress(log.address);
    add(asset, topicAddress(from), -amount);
    add(asset, topicAddress(to), amount);
  }
  return [...deltas.values()].filter((entry) => entry.delta !== 0n);
}
