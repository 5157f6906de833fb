const U64_MAX = (1n << 64n) - 1n;

/**
 * `amount` checked to be a positive u64 (what a protocol's `u64` amount argument accepts).
 *
 * @example
 * u64Amount(5_000_000n, 'assets'); // 5_000_000n
 */
export function u64Amount(amount: bigint, field: string): bigint {
  if (amount <= 0n || amount > U64_MAX) {
    throw new RangeError(`${field} must be a positive u64`);
  }
  return amount;
}
