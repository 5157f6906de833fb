import type { Address } from 'viem';
import { aaveV3PoolAbi } from './abis';
import { callView } from './callView';
import type { EvmRpc } from './evmRpc';

/**
 * An Aave v3 pool's `POOL_REVISION()` at `block`: the revision of the implementation behind the
 * proxy (9 = v3.5, whose TokenMath changed how scaled amounts round; see `aaveTokenMath`). Every
 * Aave v3 Pool implementation exposes it as a public constant. RPC errors propagate.
 *
 * @example
 * await readAavePoolRevision(rpc, pool, 42n) // 9n
 */
export function readAavePoolRevision(rpc: EvmRpc, pool: Address, block: bigint): Promise<bigint> {
  return callView(rpc, pool, aaveV3PoolAbi, 'POOL_REVISION', [], block);
}
