import { z } from 'zod';

/** Largest amount the ledger stores: PostgreSQL BIGINT max, 2^63 − 1 micros. */
export const MAX_MICROS = 9223372036854775807n;

const microsPattern = /^(0|[1-9][0-9]*)$/;

/**
 * A decimal integer from 0 to `max`, as a regular expression: shorter numbers freely, numbers as
 * long as `max` digit by digit below it. The JSON schema then states the bound itself (a
 * generated client or validator refuses 2^63 without knowing our code).
 */
export function decimalUpToPattern(max: bigint): string {
  const digits = max.toString(10);
  const alternatives = ['0'];
  if (digits.length > 1) alternatives.push(`[1-9][0-9]{0,${digits.length - 2}}`);
  for (let index = 0; index < digits.length; index += 1) {
    const digit = Number(digits[index]);
    const lowest = index === 0 ? 1 : 0;
    if (digit <= lowest) continue;
    const below = digit - 1 === lowest ? `${lowest}` : `[${lowest}-${digit - 1}]`;
    const rest = digits.length - index - 1;
    alternatives.push(`${digits.slice(0, index)}${below}${rest > 0 ? `[0-9]{${rest}}` : ''}`);
  }
  alternatives.push(digits);
  return `^(${alternatives.join('|')})$`;
}

const boundedMicrosPattern = new RegExp(decimalUpToPattern(MAX_MICROS));
const MICROS_FORMAT = 'must be an integer micros string such as "1000000"';
const MICROS_AT_MOST = 'must be at most 9223372036854775807';

/**
 * An amount in integer micros at the edge ("1000000" is 1 USDC), parsed to `bigint`.
 * Floats, exponents, signs, hex, blanks and values over 2^63 − 1 are refused; a JSON number is
 * taken only when it is a safe integer (an unsafe one has already lost micros in JSON.parse).
 *
 * @example
 * MicrosString.parse('1500000') // 1500000n
 */
const MICROS_NUMBER_ERROR =
  'amounts are decimal strings such as "1000000"; a JSON number is accepted only as a safe ' +
  `integer (0 to ${Number.MAX_SAFE_INTEGER})`;

const microsText = z
  .string({ error: MICROS_FORMAT })
  .max(19, { error: MICROS_AT_MOST })
  // One pattern states both the form and the bound, so the JSON schema carries the maximum.
  .regex(boundedMicrosPattern, {
    error: (issue) => (microsPattern.test(String(issue.input)) ? MICROS_AT_MOST : MICROS_FORMAT),
  });

/** v1 clients send small amounts as JSON numbers: only a safe integer is exact, so only it is. */
const microsNumber = z
  .number({ error: MICROS_NUMBER_ERROR })
  .int({ error: MICROS_NUMBER_ERROR })
  .min(0, { error: MICROS_NUMBER_ERROR })
  .max(Number.MAX_SAFE_INTEGER, { error: MICROS_NUMBER_ERROR });

export const MicrosString = z
  .union([microsText, microsNumber], { error: MICROS_NUMBER_ERROR })
  .transform((value) => BigInt(value))
  .meta({
    description:
      'Integer micros as a decimal string ("1000000" is 1 USDC); at most 2^63 − 1. A JSON ' +
      'number is accepted only as a safe integer (at most 2^53 − 1); send larger amounts as ' +
      'strings.',
    examples: ['1000000'],
  });
export type MicrosString = z.input<typeof MicrosString>;

/** A strictly positive amount in micros. */
export const PositiveMicrosString = MicrosString.refine((value) => value > 0n, {
  error: 'must be greater than 0',
});

/** An amount in micros as emitted in responses (always a decimal string). */
export const MicrosOut = z
  .string()
  .regex(microsPattern)
  .meta({ description: 'Integer micros as a decimal string.', examples: ['1000000'] });
export type MicrosOut = z.infer<typeof MicrosOut>;

/** Serializes a bigint amount for a response body. */
export function formatMicros(value: bigint): string {
  return value.toString(10);
}

/**
 * A base-unit amount as a decimal for people: `formatUnits(12_500_000n, 6)` is `'12.5'`.
 * Exact (string arithmetic on the bigint), trailing zeros dropped; never a float.
 */
export function formatUnits(value: bigint, decimals: number): string {
  if (!Number.isInteger(decimals) || decimals < 0) throw new RangeError('decimals: must be >= 0');
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString(10).padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * A native amount in the chain's smallest unit (wei, lamports, MIST) as a decimal string. Not
 * bounded by 2^63 − 1 (10 ETH is 10^19 wei): up to 78 digits, a uint256.
 */
export const NativeAmountString = z
  .string({ error: 'must be a decimal string of the chain’s smallest unit, such as "0"' })
  .max(78, { error: 'must be at most 78 digits (a uint256)' })
  .regex(microsPattern, { error: 'must be a decimal string of digits only, such as "0"' })
  .transform((value) => BigInt(value))
  .meta({
    description: "A native amount in the chain's smallest unit (wei, lamports, MIST), as a string.",
    examples: ['0', '21000000000000'],
  });

/** A native amount as emitted in responses: the same decimal-string form as micros. */
export const NativeAmountOut = MicrosOut.meta({
  description: "A native amount in the chain's smallest unit (wei, lamports, MIST), as a string.",
  examples: ['21000000000000'],
});
