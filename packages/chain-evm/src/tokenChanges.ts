import type { ChainApproval, ChainBalanceChange } from '@yieldrouter/schemas';
import { getAddress } from 'viem';
import type { EvmLog } from './evmRpc';

/** keccak256("Transfer(address,address,uint256)"): ERC-20's Transfer, every token's. */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

/** keccak256("Approval(address,address,uint256)"): ERC-20's Approval. */
export const APPROVAL_TOPIC = '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925';

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

/**
 * The allowances ERC-20 `Approval` logs set, per token, holder and spender: the last one each
 * (the event carries the allowance after the call). Non-standard shapes are skipped, as above.
 *
 * @example
 * tokenApprovals(simulated.logs) // [{ holder: owner, spender: vault, asset: usdc, allowance: 4_000_000n }]
 */
export function tokenApprovals(logs: readonly EvmLog[]): ChainApproval[] {
  const latest = new Map<string, ChainApproval>();
  for (const log of logs) {
    const [topic0, holder, spender] = log.topics;
    if (log.topics.length !== 3 || topic0?.toLowerCase() !== APPROVAL_TOPIC) continue;
    if (!holder || !spender || log.data.length !== 66) continue;
    const approval = {
      holder: topicAddress(holder),
      spender: topicAddress(spender),
      asset: getAddress(log.address),
      allowance: BigInt(log.data),
    };
    latest.set(`${approval.asset}:${approval.holder}:${approval.spender}`, approval);
  }
  return [...latest.values()];
}
