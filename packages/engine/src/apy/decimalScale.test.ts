import { percentToBps, scaleDecimal, usdToMicros } from './decimalScale';
import { seededRandom } from './testing/random';

describe('percentToBps', () => {
  it.each([
    [4.21, 421],
    [4.215, 422],
    [0.005, 1],
    [0.0049, 0],
    [1e-7, 0],
    [100000, 10_000_000],
    [-100, -10_000],
    [-0.0051, -1],
    [-4.215, -421],
    [12.3456, 1235],
  ])('%p %% → %p bps', (percent, bps) => {
    expect(percentToBps(percent)).toBe(bps);
  });

  it('never returns negative zero', () => {
    expect(Object.is(percentToBps(-0.005), 0)).toBe(true);
    expect(Object.is(percentToBps(-0), 0)).toBe(true);
  });

  it.each([NaN, Infinity, -Infinity, 100000.01, -100.01, 1e300])('rejects %p', (percent) => {
    expect(percentToBps(percent)).toBeNull();
  });

  it('property: whole bps round-trip and exact halves round up', () => {
    const random = seededRandom(7);
    for (let run = 0; run < 5000; run += 1) {
      const bps = random.int(-10_000, 9_999_999);
      expect(percentToBps(bps / 100)).toBe(bps);
      expect(percentToBps((2 * bps + 1) / 200)).toBe(bps + 1);
    }
  });
});

describe('usdToMicros', () => {
  it.each([
    [123456789.12, 123_456_789_120_000n],
    [0, 0n],
    [0.0000005, 1n],
    [0.00000049, 0n],
    [1e21, 10n ** 27n],
    [98765432.1, 98_765_432_100_000n],
  ])('%p USD → %p micros', (usd, micros) => {
    expect(usdToMicros(usd)).toBe(micros);
  });

  it.each([-1, -0.000001, NaN, Infinity])('rejects %p', (usd) => {
    expect(usdToMicros(usd)).toBeNull();
  });
});

describe('scaleDecimal', () => {
  it('throws on non-finite input rather than inventing a value', () => {
    expect(() => scaleDecimal(NaN, 2)).toThrow(RangeError);
  });
});
