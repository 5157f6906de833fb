const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/;

/**
 * `value × 10^shift` as an integer, rounded half up (towards +∞), computed on the shortest decimal
 * form of `value` (what JSON carried) rather than in binary floating point: 4.215 % → 421.5 bps
 * → 422, where `Math.round(4.215 * 100)` gives 421. Throws RangeError for non-finite input.
 */
export function scaleDecimal(value: number, shift: number): bigint {
  if (!Number.isFinite(value)) throw new RangeError('not a finite number');
  const match = DECIMAL.exec(String(value));
  if (!match) throw new RangeError('unexpected number format');
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  const digits = `${whole}${fraction}`;
  const scale = Number(exponent) - fraction.length + shift;
  const negative = sign === '-';
  if (scale >= 0) {
    const magnitude = BigInt(digits) * 10n ** BigInt(scale);
    return negative ? -magnitude : magnitude;
  }
  const cut = digits.length + scale;
  const kept = cut > 0 ? BigInt(digits.slice(0, cut)) : 0n;
  const dropped = cut > 0 ? digits.slice(cut) : '0'.repeat(-cut) + digits;
  const first = dropped.charCodeAt(0) - 48;
  const restNonZero = /[1-9]/.test(dropped.slice(1));
  // Half up (towards +∞): a positive value rounds away at exactly half, a negative one only above.
  const roundAway = negative ? first > 5 || (first === 5 && restNonZero) : first >= 5;
  const magnitude = roundAway ? kept + 1n : kept;
  return negative && magnitude !== 0n ? -magnitude : magnitude;
}

/** Lowest and highest APY (percent) accepted from a source; anything else is a bad response. */
export const APY_PERCENT_MIN = -100;
export const APY_PERCENT_MAX = 100_000;

/**
 * A percentage (4.21) as integer basis points (421), half up; null when the value is not a
 * finite number inside [APY_PERCENT_MIN, APY_PERCENT_MAX].
 */
export function percentToBps(percent: number): number | null {
  if (!Number.isFinite(percent) || percent < APY_PERCENT_MIN || percent > APY_PERCENT_MAX) {
    return null;
  }
  return Number(scaleDecimal(percent, 2));
}

/**
 * A dollar amount as bigint micros (USD × 10^6), exact to the decimal digits the source sent
 * (half up past the sixth decimal); null when negative or not finite.
 */
export function usdToMicros(usd: number): bigint | null {
  if (!Number.isFinite(usd) || usd < 0) return null;
  return scaleDecimal(usd, 6);
}
