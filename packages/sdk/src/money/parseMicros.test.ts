import fc from 'fast-check';
import { formatMicros } from './formatMicros';
import { parseMicros } from './parseMicros';

describe('parseMicros', () => {
  it.each([
    ['12.5', 12_500_000n],
    ['0', 0n],
    ['1', 1_000_000n],
    ['0.000001', 1n],
    ['1.500000', 1_500_000n],
    ['-2.25', -2_250_000n],
    ['9223372036854.775807', 9_223_372_036_854_775_807n],
  ])('%s → %s', (text, micros) => {
    expect(parseMicros(text)).toBe(micros);
  });

  it.each(['1.0000001', '1e6', '1,5', ' 1', '.5', '5.', '+1', '0x10', 'NaN', 'Infinity', ''])(
    'refuses %j',
    (text) => {
      expect(() => parseMicros(text)).toThrow(RangeError);
    },
  );

  it('names the 6-decimal limit', () => {
    expect(() => parseMicros('0.1234567')).toThrow('more than 6 decimals');
  });
});

describe('formatMicros', () => {
  it.each([
    [12_500_000n, '12.5'],
    [1_000_000n, '1'],
    [0n, '0'],
    [1n, '0.000001'],
    [-1_250_000n, '-1.25'],
  ])('%s → %s', (micros, text) => {
    expect(formatMicros(micros)).toBe(text);
  });

  it('parseMicros(formatMicros(x)) === x for every bigint', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }), (micros) => {
        expect(parseMicros(formatMicros(micros))).toBe(micros);
      }),
      { numRuns: 2000 },
    );
  });

  it('formatMicros(parseMicros(s)) is s without trailing zeros', () => {
    const decimal = fc
      .tuple(fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.stringMatching(/^[0-9]{0,6}$/))
      .map(([whole, fraction]) => (fraction ? `${whole}.${fraction}` : `${whole}`));
    fc.assert(
      fc.property(decimal, (text) => {
        const canonical = text.includes('.') ? text.replace(/\.?0+$/, '') : text;
        expect(formatMicros(parseMicros(text))).toBe(canonical);
      }),
    );
  });
});
