import fc from 'fast-check';
import { bpsOf } from './bpsOf';
import { computeBridgeFeeLines } from './computeBridgeFeeLines';
import { computeHarvestFees } from './computeHarvestFees';
import { computeSwapFeeLines } from './computeSwapFeeLines';
import { computeYieldSkim } from './computeYieldSkim';
import type { FeeSchedule } from './feeSchedule';
import { MAX_MICROS, defaultFeeSchedule } from './feeSchedule';
import { minAmountOut } from './minAmountOut';

// Keep products under 2^63 − 1 × 10000 well-defined: bigint has no overflow, but inputs are
// bounded by MAX_MICROS as in the ledger.
const micros = fc.bigInt({ min: 0n, max: MAX_MICROS });
const bps = fc.integer({ min: 0, max: 10_000 });

describe('fee invariants (property tests)', () => {
  it('skim + net == gross, skim <= gross, skim >= 0', () => {
    fc.assert(
      // The skim stops at the registry maximum (computeVenueSkim.property.test.ts refuses above).
      fc.property(micros, fc.integer({ min: 0, max: 1000 }), (gross, skimBps) => {
        const { skimMicros, netMicros } = computeYieldSkim({ grossYieldMicros: gross, skimBps });
        expect(skimMicros + netMicros).toBe(gross);
        expect(skimMicros >= 0n && skimMicros <= gross).toBe(true);
      }),
    );
  });

  it('a fee rounds down: bpsOf × 10000 never exceeds amount × bps', () => {
    fc.assert(
      fc.property(micros, bps, (amount, rate) => {
        const fee = bpsOf(amount, rate);
        expect(fee * 10_000n <= amount * BigInt(rate)).toBe(true);
        expect((fee + 1n) * 10_000n > amount * BigInt(rate)).toBe(true);
      }),
    );
  });

  it('fees are monotonic in the amount', () => {
    fc.assert(
      fc.property(micros, micros, bps, (a, b, rate) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(bpsOf(lo, rate) <= bpsOf(hi, rate)).toBe(true);
      }),
    );
  });

  it('harvest: parts sum to gross; profit fee within cap, zero when off', () => {
    const on: FeeSchedule = {
      ...defaultFeeSchedule,
      harvestProfitFee: { ...defaultFeeSchedule.harvestProfitFee, enabled: true },
    };
    fc.assert(
      fc.property(micros, fc.boolean(), (gross, enabled) => {
        const schedule = enabled ? on : defaultFeeSchedule;
        const fees = computeHarvestFees({ grossYieldMicros: gross, schedule });
        expect(fees.protocolFeeMicros + fees.profitFeeMicros + fees.netYieldMicros).toBe(gross);
        expect(fees.profitFeeMicros <= schedule.harvestProfitFee.capMicros).toBe(true);
        expect(fees.netYieldMicros >= 0n).toBe(true);
        if (!enabled) expect(fees.profitFeeMicros).toBe(0n);
      }),
    );
  });

  it('swap lines + net == amount in', () => {
    fc.assert(
      fc.property(micros, fc.integer({ min: 0, max: 9_990 }), (amount, poolFeeBps) => {
        const result = computeSwapFeeLines({ amountInMicros: amount, poolFeeBps });
        const sum = result.lines.reduce((total, line) => total + line.amountMicros, 0n);
        expect(sum).toBe(result.totalFeeMicros);
        expect(result.totalFeeMicros + result.netAmountInMicros).toBe(amount);
      }),
    );
  });

  it('bridge lines + net delivered == amount (when fees fit)', () => {
    fc.assert(
      fc.property(micros, micros, (amount, rail) => {
        const service = bpsOf(amount, defaultFeeSchedule.bridgeFeeBps);
        if (service + rail > amount) {
          expect(() =>
            computeBridgeFeeLines({ amountMicros: amount, railFeeMicros: rail }),
          ).toThrow();
          return;
        }
        const result = computeBridgeFeeLines({ amountMicros: amount, railFeeMicros: rail });
        expect(result.totalFeeMicros + result.netDeliveredMicros).toBe(amount);
      }),
    );
  });

  it('slippage bound never exceeds the quote', () => {
    fc.assert(
      fc.property(micros, fc.integer({ min: 0, max: 500 }), (quoted, slippageBps) => {
        const bound = minAmountOut({ quotedAmountOutMicros: quoted, slippageBps });
        expect(bound <= quoted && bound >= 0n).toBe(true);
      }),
    );
  });
});
