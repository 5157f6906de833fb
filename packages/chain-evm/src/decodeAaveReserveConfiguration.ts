/** The fields of an Aave v3 reserve configuration the adapter reads. */
export interface AaveReserveConfiguration {
  /** The reserve's decimals, in which the supply cap is scaled. */
  readonly decimals: number;
  /** The supply cap in whole tokens; 0 is no cap. */
  readonly supplyCapWholeTokens: bigint;
  readonly active: boolean;
  readonly frozen: boolean;
  readonly paused: boolean;
}

const bits = (data: bigint, start: bigint, width: bigint): bigint =>
  (data >> start) & ((1n << width) - 1n);

/**
 * Unpacks `ReserveConfigurationMap.data` (Pool `getConfiguration(asset)`, or the `configuration`
 * of `getReserveData`) with the bit positions of Aave v3's ReserveConfiguration library, the same
 * from v3.0 to v3.6: decimals bits 48–55, active bit 56, frozen 57, paused 60, supply cap bits
 * 116–151 (36 bits, whole tokens).
 *
 * @throws RangeError when `data` is not a uint256.
 * @example
 * decodeAaveReserveConfiguration((6n << 48n) | (1n << 56n) | (2_000_000n << 116n))
 * // { decimals: 6, supplyCapWholeTokens: 2_000_000n, active: true, frozen: false, paused: false }
 */
export function decodeAaveReserveConfiguration(data: bigint): AaveReserveConfiguration {
  if (data < 0n || data >= 1n << 256n) throw new RangeError('not a uint256');
  return {
    decimals: Number(bits(data, 48n, 8n)),
    supplyCapWholeTokens: bits(data, 116n, 36n),
    active: bits(data, 56n, 1n) === 1n,
    frozen: bits(data, 57n, 1n) === 1n,
    paused: bits(data, 60n, 1n) === 1n,
  };
}
