import fc from 'fast-check';
import { MAX_MICROS, MicrosString, PositiveMicrosString, formatMicros } from './money';

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

  it('refuses numbers (floats lose micros)', () => {
    expect(MicrosString.safeParse(1000000).success).toBe(false);
  });

  it('PositiveMicrosString refuses 0', () => {
    expect(PositiveMicrosString.safeParse('0').success).toBe(false);
    expect(PositiveMicrosString.parse('1')).toBe(1n);
  });
});
