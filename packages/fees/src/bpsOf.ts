import { BPS_DENOMINATOR, assertBps, assertMicros } from './feeSchedule';

/**
 * `floor(amount × bps / 10000)`: a fee rounds down, in the user's favour.
 *
 * @example
 * bpsOf(1_000_000n, 500) // 50_000n
 */
export function bpsOf(amountMicros: bigint, bps: number | bigint): bigint {
  assertMicros(amountMicros, 'amountMicros');
  return (amountMicros * assertBps(bps, 'bps')) / BPS_DENOMINATOR;
}
