import type { VenueFactsReading } from '@yieldrouter/schemas';
import { isAddressEqual } from 'viem';
import { aaveSupplyCapFacts } from './aaveSupplyCapFacts';
import { aaveV3ATokenAbi, aaveV3PoolAbi, erc20Abi } from './abis';
import { callView } from './callView';
import type { EvmRpc } from './evmRpc';
import { readTokenDecimals } from './readTokenDecimals';
import type { VenueTarget } from './resolveVenueTarget';

const units = (value: bigint | null) => (value === null ? null : value.toString(10));

/**
 * An Aave v3 venue's facts at `block` (`what` names the read in a detail): TVL = the aToken's
 * `totalSupply()`, underlying = `UNDERLYING_ASSET_ADDRESS()`, receipt = the aToken, and the
 * reserve's supply cap and the room under it (`aaveSupplyCapFacts`) from the configured pool's
 * `getReserveData(asset)` — its `configuration` is the map `getConfiguration` returns, its
 * `accruedToTreasury` counts against the cap — with `getReserveNormalizedIncome(asset)` and the
 * aToken's `scaledTotalSupply()`. The aToken's `POOL()` must be the configured pool (else
 * `asset_not_configured`: the cap would be another pool's). Calls throw; the caller maps them.
 *
 * @example
 * await readAaveVenueFacts(rpc, { standard: 'aave-v3', pool, aToken }, block, 'facts of aave')
 * // { status: 'ok', nativeTvlUnits: '60000000', totalCapUnits: '100000000', maxDepositUnits: '35000000', … }
 */
export async function readAaveVenueFacts(
  rpc: EvmRpc,
  target: Extract<VenueTarget, { standard: 'aave-v3' }>,
  block: bigint,
  what: string,
): Promise<VenueFactsReading> {
  const [tvl, scaledTotalSupply, asset, pool] = await Promise.all([
    callView(rpc, target.aToken, erc20Abi, 'totalSupply', [], block),
    callView(rpc, target.aToken, aaveV3ATokenAbi, 'scaledTotalSupply', [], block),
    callView(rpc, target.aToken, aaveV3ATokenAbi, 'UNDERLYING_ASSET_ADDRESS', [], block),
    callView(rpc, target.aToken, aaveV3ATokenAbi, 'POOL', [], block),
  ]);
  if (!isAddressEqual(pool, target.pool)) {
    return {
      status: 'unavailable',
      reason: 'asset_not_configured',
      detail: `${what}: the aToken's POOL() is ${pool}, not the configured pool ${target.pool}`,
    };
  }
  const [reserve, normalizedIncome, assetDecimals, receiptDecimals] = await Promise.all([
    callView(rpc, target.pool, aaveV3PoolAbi, 'getReserveData', [asset], block),
    callView(rpc, target.pool, aaveV3PoolAbi, 'getReserveNormalizedIncome', [asset], block),
    readTokenDecimals(rpc, asset, block),
    readTokenDecimals(rpc, target.aToken, block),
  ]);
  const cap = aaveSupplyCapFacts({
    configuration: reserve.configuration.data,
    scaledTotalSupply,
    accruedToTreasury: reserve.accruedToTreasury,
    normalizedIncome,
  });
  return {
    status: 'ok',
    nativeTvlUnits: tvl.toString(10),
    maxDepositUnits: units(cap.maxDepositUnits),
    totalCapUnits: units(cap.totalCapUnits),
    capUsedUnits: units(cap.capUsedUnits),
    underlying: { address: asset, decimals: assetDecimals },
    receipt: { address: target.aToken, decimals: receiptDecimals },
    reason: cap.reason,
  };
}
