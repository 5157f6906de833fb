const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;
const MICROS_PER_UNIT = 1_000_000n;

/**
 * A decimal amount (`'12.5'` USDC) as integer micros (`12_500_000n`), by string arithmetic —
 * never through a float. At most 6 decimals; signs other than a leading `-`, exponents,
 * blanks and separators are refused with a RangeError.
 *
 * @example
 * parseMicros('12.5') // 12_500_000n
 * parseMicros('0.000001') // 1n
 * parseMicros('1.0000001') // throws RangeError: more than 6 decimals
 */
export function parseMicros(amount: string): bigint {
  const match = DECIMAL.exec(amount);
  if (!match) {
    throw new RangeError(`parseMicros: '${amount}' is not a decimal amount such as '12.5'`);
  }
  const [, sign = '', whole = '0', fraction = ''] = match;
  if (fraction.length > 6) {
    throw new RangeError(`parseMicros: '${amount}' has more than 6 decimals`);
  }
  const micros = BigInt(whole) * MICROS_PER_UNIT + BigInt(fraction.padEnd(6, '0'));
  return sign === '-' ? -micros : micros;
}
