import { formatUnits } from '@yieldrouter/schemas';

/**
 * Integer micros as a decimal amount for people, exact and without trailing zeros — the
 * inverse of {@link parseMicros}.
 *
 * @example
 * formatMicros(12_500_000n) // '12.5'
 * formatMicros(1n) // '0.000001'
 * formatMicros(BigInt(plan.amountMicros)) // amounts arrive as integer strings
 */
export function formatMicros(micros: bigint): string {
  return formatUnits(micros, 6);
}
