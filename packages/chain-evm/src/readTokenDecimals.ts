import type { Address } from 'viem';
import { erc20Abi } from './abis';
import { callView } from './callView';
import type { EvmRpc } from './evmRpc';

/**
 * A token's `decimals()` at `block`; null when the token does not answer (never a guess).
 *
 * @example
 * await readTokenDecimals(rpc, usdc, block) // 6
 */
export async function readTokenDecimals(
  rpc: EvmRpc,
  token: Address,
  block: bigint,
): Promise<number | null> {
  try {
    return await callView(rpc, token, erc20Abi, 'decimals', [], block);
  } catch {
    return null;
  }
}
