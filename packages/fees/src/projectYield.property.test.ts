import fc from 'fast-check';
import { FeeError } from './errors';
import { MAX_MICROS } from './feeSchedule';
import { MAX_PROJECTED_APY_BPS, projectYield } from './projectYield';

const amount = fc.bigInt({ min: 0n, max: MAX_MICROS });
// Amounts whose projection stays within 2^63 − 1 whatever the APY and horizon.
const fitting = fc.bigInt({ min: 0n, max: MAX_MICROS / 10_000n });
const apy = fc.integer({ min: 0, max: MAX_PROJECTED_APY_BPS });
const days = fc.integer({ min: 1, max: 3650 });

describe('projectYield', () => {
  it('a year at 5 % on 1,000 USDC is 50 USDC gross, 47.5 net of the 5 % skim', () => {
    expect(projectYield({ amountMicros: 1_000_000_000n, apyBps: 500, days: 365 })).toEqual({
      grossYieldMicros: 50_000_000n,
      skimMicros: 2_500_000n,
      netMicros: 47_500_000n,
    });
  });

  it('skim + net == gross; gross rounds down and never exceeds the exact pro rata', () => {
    fc.assert(
      fc.property(amount, apy, days, (amountMicros, apyBps, horizon) => {
        const exact = amountMicros * BigInt(apyBps) * BigInt(horizon);
        if (exact / 3_650_000n > MAX_MICROS) {
          expect(() => projectYield({ amountMicros, apyBps, days: horizon })).toThrow(FeeError);
          return;
        }
        const { grossYieldMicros, skimMicros, netMicros } = projectYield({
          amountMicros,
          apyBps,
          days: horizon,
        });
        expect(skimMicros + netMicros).toBe(grossYieldMicros);
        expect(grossYieldMicros * 3_650_000n <= exact).toBe(true);
        expect((grossYieldMicros + 1n) * 3_650_000n > exact).toBe(true);
      }),
    );
  });

  it('is monotonic in the amount, the APY and the horizon', () => {
    fc.assert(
      fc.property(fitting, apy, days, fitting, apy, days, (a1, r1, d1, a2, r2, d2) => {
        const lo = projectYield({
          amountMicros: a1 < a2 ? a1 : a2,
          apyBps: Math.min(r1, r2),
          days: Math.min(d1, d2),
        });
        const hi = projectYield({
          amountMicros: a1 < a2 ? a2 : a1,
          apyBps: Math.max(r1, r2),
          days: Math.max(d1, d2),
        });
        expect(lo.grossYieldMicros <= hi.grossYieldMicros).toBe(true);
      }),
    );
  });

  it.each([
    [{ amountMicros: -1n, apyBps: 1, days: 1 }, 'amountMicros'],
    [{ amountMicros: 1n, apyBps: -1, days: 1 }, 'apyBps'],
    [{ amountMicros: 1n, apyBps: 1.5, days: 1 }, 'apyBps'],
    [{ amountMicros: 1n, apyBps: 1, days: 0 }, 'days'],
    [{ amountMicros: 1n, apyBps: 1, days: 3651 }, 'days'],
  ])('refuses %j naming %s', (input, field) => {
    expect(() => projectYield(input)).toThrow(FeeError);
    try {
      projectYield(input);
    } catch (error) {
      expect((error as FeeError).field).toBe(field);
    }
  });
});
