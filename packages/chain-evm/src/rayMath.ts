// Aave v3's WadRayMath: the operations its share price, scaled amounts and supply cap need (one
// file: they are one unit).

/** 1 in ray units (27 decimals): Aave's liquidity index starts here. */
export const RAY = 10n ** 27n;
const HALF_RAY = RAY / 2n;

/**
 * `a × b / RAY`, rounded half up, as Aave v3's `rayMul` (an aToken's balance is
 * `scaledBalance.rayMul(normalizedIncome)`).
 *
 * @example
 * rayMul(10_000_000n, 11n * 10n ** 26n) // 11_000_000n
 */
export function rayMul(a: bigint, b: bigint): bigint {
  return (a * b + HALF_RAY) / RAY;
}

/**
 * `a × b / RAY`, rounded up (Aave's `rayMulCeil`, v3.5+), as Aave's ERC-4626 wrapper counts a
 * reserve's supply against its cap in `maxDeposit`: never understated by rounding.
 *
 * @example
 * rayMulCeil(3n, RAY / 2n) // 2n (rayMul: 2n; the floor would be 1n)
 */
export function rayMulCeil(a: bigint, b: bigint): bigint {
  return (a * b + RAY - 1n) / RAY;
}

/**
 * `a × RAY / b`, rounded half up, as Aave v3's `rayDiv` (a supply of `amount` mints
 * `amount.rayDiv(index)` scaled units).
 *
 * @throws RangeError when b is 0.
 * @example
 * rayDiv(5_500_000n, 11n * 10n ** 26n) // 5_000_000n
 */
export function rayDiv(a: bigint, b: bigint): bigint {
  return (a * RAY + b / 2n) / b;
}

/**
 * `a × b / RAY`, rounded down (Aave's `rayMulFloor`, v3.5+): an aToken's balance is
 * `scaledBalance.rayMulFloor(normalizedIncome)` (TokenMath.getATokenBalance).
 *
 * @example
 * rayMulFloor(4_545_454n, 11n * 10n ** 26n) // 4_999_999n
 */
export function rayMulFloor(a: bigint, b: bigint): bigint {
  return (a * b) / RAY;
}

/**
 * `a × RAY / b`, rounded down (Aave's `rayDivFloor`, v3.5+): a supply of `amount` mints
 * `amount.rayDivFloor(index)` scaled units (TokenMath.getATokenMintScaledAmount).
 *
 * @throws RangeError when b is 0.
 * @example
 * rayDivFloor(5_000_000n, 11n * 10n ** 26n) // 4_545_454n
 */
export function rayDivFloor(a: bigint, b: bigint): bigint {
  return (a * RAY) / b;
}

/**
 * `a × RAY / b`, rounded up (Aave's `rayDivCeil`, v3.5+): a withdrawal of `amount` burns
 * `amount.rayDivCeil(index)` scaled units (TokenMath.getATokenBurnScaledAmount).
 *
 * @throws RangeError when b is 0.
 * @example
 * rayDivCeil(5_000_000n, 11n * 10n ** 26n) // 4_545_455n
 */
export function rayDivCeil(a: bigint, b: bigint): bigint {
  return (a * RAY + b - 1n) / b;
}
