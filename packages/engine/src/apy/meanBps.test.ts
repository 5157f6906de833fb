import { meanBps } from './meanBps';
import { seededRandom } from './testing/random';

describe('meanBps', () => {
  it('averages, ignoring nulls, rounding half up', () => {
    expect(meanBps([400, null, 401], 2)).toEqual({ meanBps: 401, samples: 2 });
    expect(meanBps([400, 400, 401], 1)).toEqual({ meanBps: 400, samples: 3 });
    expect(meanBps([-3, -2], 1)).toEqual({ meanBps: -2, samples: 2 });
    expect(meanBps([-3, -4, -4], 1)).toEqual({ meanBps: -4, samples: 3 });
  });

  it('is null with fewer than minSamples non-null samples, and with none at all', () => {
    expect(meanBps([400, null, null], 2)).toEqual({ meanBps: null, samples: 1 });
    expect(meanBps([], 0)).toEqual({ meanBps: null, samples: 0 });
    expect(meanBps([null, null], 0)).toEqual({ meanBps: null, samples: 0 });
  });

  it('refuses non-integer samples', () => {
    expect(() => meanBps([400.5], 1)).toThrow(RangeError);
    expect(() => meanBps([NaN], 1)).toThrow(RangeError);
  });

  it('property: matches the exact rounded mean, bounded by min and max, null-insensitive', () => {
    const random = seededRandom(42);
    for (let run = 0; run < 2000; run += 1) {
      const values = Array.from({ length: random.int(1, 60) }, () => random.int(-10_000, 50_000));
      const withNulls = values.flatMap((value) =>
        random.int(0, 2) === 0 ? [null, value] : [value],
      );
      const result = meanBps(withNulls, 1);
      const sum = values.reduce((total, value) => total + value, 0);
      expect(result.samples).toBe(values.length);
      expect(result.meanBps).toBe(Math.round(sum / values.length));
      expect(result).toEqual(meanBps(values, 1));
      expect(result.meanBps).toBeGreaterThanOrEqual(Math.min(...values));
      expect(result.meanBps).toBeLessThanOrEqual(Math.max(...values));
      expect(Number.isInteger(result.meanBps)).toBe(true);
      const threshold = random.int(0, 80);
      const gated = meanBps(withNulls, threshold);
      expect(gated.meanBps).toBe(values.length >= threshold ? result.meanBps : null);
    }
  });

  it('property: a constant series has that constant as its mean', () => {
    const random = seededRandom(3);
    for (let run = 0; run < 500; run += 1) {
      const value = random.int(-10_000, 10_000_000);
      expect(meanBps(Array(random.int(1, 40)).fill(value), 1).meanBps).toBe(value);
    }
  });
});
