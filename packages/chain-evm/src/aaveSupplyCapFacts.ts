import { decodeAaveReserveConfiguration } from './decodeAaveReserveConfiguration';
import { rayMulCeil } from './rayMath';

export interface AaveSupplyCapFactsParameters {
  /** `ReserveConfigurationMap.data` of the reserve. */
  readonly configuration: bigint;
  /** The aToken's `scaledTotalSupply()`. */
  readonly scaledTotalSupply: bigint;
  /** The reserve's `accruedToTreasury` (scaled), from `getReserveData`. */
  readonly accruedToTreasury: bigint;
  /** The Pool's `getReserveNormalizedIncome(asset)` (ray). */
  readonly normalizedIncome: bigint;
}

export interface AaveSupplyCapFactsReturnType {
  /** `supplyCap × 10^decimals`; null without a cap. */
  readonly totalCapUnits: bigint | null;
  /** What Aave counts against the cap; null without a cap. */
  readonly capUsedUnits: bigint | null;
  /** The most one supply can add now; null when uncapped and open, 0 when closed or full. */
  readonly maxDepositUnits: bigint | null;
  /** Why a figure is null or the reserve takes nothing; null when every figure is known. */
  readonly reason: string | null;
}

/**
 * An Aave v3 reserve's supply cap and the room under it, in underlying units. Aave's own check
 * (ValidationLogic.validateSupply) lets a supply of `amount` through while
 * `(scaledTotalSupply + accruedToTreasury) × index + amount ≤ supplyCap × 10^decimals`, so the
 * room is the cap minus `(scaledTotalSupply + accruedToTreasury).rayMulCeil(normalizedIncome)`,
 * floored at 0 — as Aave's ERC-4626 wrapper computes `maxDeposit`. Rounding up never overstates
 * the room: Aave rounds the product half up (v3.0–v3.4) or down (v3.5+, on the scaled sum with
 * the amount), so its room is this or a unit or so more.
 *
 * The approximation: the reading cannot see the treasury's share of the interest accrued since
 * the reserve's last update (Aave adds it to `accruedToTreasury` just before its check) nor the
 * index's growth until a supply is mined; both make the real room slightly smaller than the
 * room at the read block, by the interest of those seconds. A reserve that is inactive, paused
 * or frozen takes no supply: `maxDepositUnits` is 0.
 *
 * @example
 * aaveSupplyCapFacts({
 *   configuration: (6n << 48n) | (1n << 56n) | (100n << 116n),
 *   scaledTotalSupply: 60_000_000n,
 *   accruedToTreasury: 5_000_000n,
 *   normalizedIncome: 10n ** 27n,
 * }) // { totalCapUnits: 100_000_000n, capUsedUnits: 65_000_000n, maxDepositUnits: 35_000_000n, reason: null }
 */
export function aaveSupplyCapFacts({
  configuration,
  scaledTotalSupply,
  accruedToTreasury,
  normalizedIncome,
}: AaveSupplyCapFactsParameters): AaveSupplyCapFactsReturnType {
  const reserve = decodeAaveReserveConfiguration(configuration);
  // Aave's validateSupply checks active, then paused, then frozen.
  const closedAs = !reserve.active
    ? 'inactive'
    : reserve.paused
      ? 'paused'
      : reserve.frozen
        ? 'frozen'
        : null;
  const closed = closedAs && `the Aave v3 reserve is ${closedAs}: it takes no supply`;
  if (reserve.supplyCapWholeTokens === 0n) {
    return {
      totalCapUnits: null,
      capUsedUnits: null,
      maxDepositUnits: closed ? 0n : null,
      reason: ['no supply cap set (uncapped)', closed].filter(Boolean).join('; '),
    };
  }
  const totalCapUnits = reserve.supplyCapWholeTokens * 10n ** BigInt(reserve.decimals);
  const capUsedUnits = rayMulCeil(scaledTotalSupply + accruedToTreasury, normalizedIncome);
  const room = totalCapUnits > capUsedUnits ? totalCapUnits - capUsedUnits : 0n;
  return {
    totalCapUnits,
    capUsedUnits,
    maxDepositUnits: closed ? 0n : room,
    reason: closed,
  };
}
