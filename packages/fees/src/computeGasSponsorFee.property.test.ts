import fc from 'fast-check';
import { FeeError } from './errors';
import { computeGasSponsorFee } from './computeGasSponsorFee';
import { MAX_MICROS, defaultFeeSchedule } from './feeSchedule';
import type { FeeSchedule } from './feeSchedule';

const micros = fc.bigInt({ min: 0n, max: MAX_MICROS });
const bps = fc.integer({ min: 0, max: 10_000 });
const scheduleWith = (gasSponsorFeeBps: number): FeeSchedule => ({
  ...defaultFeeSchedule,
  gasSponsorFeeBps,
});

describe('computeGasSponsorFee (property tests)', () => {
  it('fee + net == gross, both bigint, never negative', () => {
    fc.assert(
      fc.property(micros, bps, (gross, rate) => {
        const {
          feeMicros,
          netMicros,
          bps: charged,
        } = computeGasSponsorFee({
          grossMicros: gross,
          schedule: scheduleWith(rate),
        });
        expect(typeof feeMicros).toBe('bigint');
        expect(typeof netMicros).toBe('bigint');
        expect(feeMicros + netMicros).toBe(gross);
        expect(feeMicros >= 0n && netMicros >= 0n).toBe(true);
        expect(charged).toBe(rate);
      }),
    );
  });

  it('the fee rounds down: the largest integer with fee × 10000 ≤ gross × bps', () => {
    fc.assert(
      fc.property(micros, bps, (gross, rate) => {
        const { feeMicros } = computeGasSponsorFee({
          grossMicros: gross,
          schedule: scheduleWith(rate),
        });
        const exact = gross * BigInt(rate);
        expect(feeMicros * 10_000n <= exact).toBe(true);
        expect((feeMicros + 1n) * 10_000n > exact).toBe(true);
      }),
    );
  });

  it('uses gasSponsorFeeBps of the published schedule by default', () => {
    expect(defaultFeeSchedule.gasSponsorFeeBps).toBe(50);
    expect(computeGasSponsorFee({ grossMicros: 2_000_001n })).toEqual({
      bps: 50,
      feeMicros: 10_000n,
      netMicros: 1_990_001n,
    });
  });

  it('refuses a negative or over-range gross and a rate outside 0..10000', () => {
    expect(() => computeGasSponsorFee({ grossMicros: -1n })).toThrow(FeeError);
    expect(() => computeGasSponsorFee({ grossMicros: MAX_MICROS + 1n })).toThrow(FeeError);
    expect(() => computeGasSponsorFee({ grossMicros: 1n, schedule: scheduleWith(10_001) })).toThrow(
      FeeError,
    );
    expect(() => computeGasSponsorFee({ grossMicros: 1n, schedule: scheduleWith(0.5) })).toThrow(
      FeeError,
    );
  });
});
