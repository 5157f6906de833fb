import fc from 'fast-check';
import { MAX_MICROS, MicrosString, PositiveMicrosString, formatMicros, formatUnits } from './money';

describe('MicrosString', () => {
  it('round-trips every amount from 0 to 2^63 − 1', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: MAX_MICROS }), (value) => {
        expect(MicrosString.parse(formatMicros(value))).toBe(value);
      }),
    );
  });

  it('refuses anything above 2^63 − 1', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: MAX_MICROS + 1n, max: MAX_MICROS * 1000n }), (value) => {
        expect(MicrosString.safeParse(value.toString()).success).toBe(false);
      }),
    );
  });

  it.each(['1.5', '1e6', '-1', '+1', '0x10', '', ' 1', '01', '1_000', 'NaN', 'Infinity'])(
    'refuses %j',
    (text) => {
      expect(MicrosString.safeParse(text).success).toBe(false);
    },
  );

  it('takes a JSON number only when it is a safe integer, and says amounts are strings', () => {
    expect(MicrosString.parse(1000000)).toBe(1000000n);
    expect(MicrosString.parse(Number.MAX_SAFE_INTEGER)).toBe(2n ** 53n - 1n);
    for (const number of [1.5, -1, Number.MAX_SAFE_INTEGER + 1, 1e20, Number.NaN]) {
      const result = MicrosString.safeParse(number);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toContain('amounts are decimal strings');
    }
  });

  it('PositiveMicrosString refuses 0', () => {
    expect(PositiveMicrosString.safeParse('0').success).toBe(false);
    expect(PositiveMicrosString.parse('1')).toBe(1n);
  });
});

describe('formatUnits', () => {
  it('formats exactly, without floats', () => {
    expect(formatUnits(12_500_000n, 6)).toBe('12.5');
    expect(formatUnits(1n, 9)).toBe('0.000000001');
    expect(formatUnits(0n, 18)).toBe('0');
    expect(formatUnits(-1_000_000n, 6)).toBe('-1');
    expect(formatUnits(123n, 0)).toBe('123');
    expect(formatUnits(2n ** 63n - 1n, 6)).toBe('9223372036854.775807');
  });

  it('round-trips every amount through its digits', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2n ** 96n }),
        fc.integer({ min: 0, max: 24 }),
        (value, decimals) => {
          const [whole, fraction = ''] = formatUnits(value, decimals).split('.');
          expect(BigInt(`${whole}${fraction.padEnd(decimals, '0')}`)).toBe(value);
        },
      ),
    );
  });

  it('refuses negative decimals', () => {
    expect(() => formatUnits(1n, -1)).toThrow(RangeError);
  });
});
