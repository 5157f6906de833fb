import fc from 'fast-check';
import { computeHarvestFees } from './computeHarvestFees';
import { computeYieldRealisation } from './computeYieldRealisation';
import { FeeError } from './errors';
import { defaultFeeSchedule } from './feeSchedule';
import type { FeeSchedule } from './feeSchedule';

// Issue #46: a harvest with execute:true realises the yield above the owner's staked balance and
// pays the protocol's whole claim to the treasury.

const RUNS = { numRuns: 300 };
const withProfitFee: FeeSchedule = {
  ...defaultFeeSchedule,
  harvestProfitFee: { ...defaultFeeSchedule.harvestProfitFee, enabled: true },
};
const position = fc
  .record({
    staked: fc.bigInt({ min: 0n, max: 1n << 48n }),
    retained: fc.bigInt({ min: 0n, max: 1n << 40n }),
    change: fc.bigInt({ min: -(1n << 40n), max: 1n << 44n }),
    profitFee: fc.boolean(),
  })
  .map(({ staked, retained, change, profitFee }) => {
    const markMicros = staked + retained;
    const valueMicros = markMicros + change < 0n ? 0n : markMicros + change;
    return {
      valueMicros,
      markMicros,
      feesRetainedMicros: retained,
      schedule: profitFee ? withProfitFee : defaultFeeSchedule,
    };
  });

describe('computeYieldRealisation', () => {
  it('skim + net == gross; the owner keeps staked in the venue and gets the net yield', () => {
    fc.assert(
      fc.property(position, (p) => {
        const r = computeYieldRealisation(p);
        expect(r.skimMicros + r.netMicros).toBe(r.grossMicros);
        expect(r.netMicros >= 0n && r.skimMicros >= 0n).toBe(true);
        expect(r.grossMicros <= p.valueMicros).toBe(true);
        if (p.valueMicros <= p.markMicros) {
          expect(r).toEqual({ grossMicros: 0n, skimMicros: 0n, netMicros: 0n });
          return;
        }
        const staked = p.markMicros - p.feesRetainedMicros;
        expect(p.valueMicros - r.grossMicros).toBe(staked);
        // The owner gets exactly what a harvest would compound; the treasury everything else.
        const fees = computeHarvestFees({
          grossYieldMicros: p.valueMicros - p.markMicros,
          schedule: p.schedule,
        });
        expect(r.netMicros).toBe(fees.netYieldMicros);
        expect(r.skimMicros).toBe(
          p.feesRetainedMicros + fees.protocolFeeMicros + fees.profitFeeMicros,
        );
      }),
      RUNS,
    );
  });

  it('the profit fee takes the same path when switched on (1 %, capped at 10 USD)', () => {
    const off = computeYieldRealisation({
      valueMicros: 110_000_000n,
      markMicros: 100_000_000n,
      feesRetainedMicros: 0n,
    });
    expect(off).toEqual({ grossMicros: 10_000_000n, skimMicros: 500_000n, netMicros: 9_500_000n });
    const on = computeYieldRealisation({
      valueMicros: 110_000_000n,
      markMicros: 100_000_000n,
      feesRetainedMicros: 0n,
      schedule: withProfitFee,
    });
    // skim 500_000, then 1 % of the 9_500_000 left: 95_000.
    expect(on).toEqual({ grossMicros: 10_000_000n, skimMicros: 595_000n, netMicros: 9_405_000n });
  });

  it('refuses retained fees above the mark and negative amounts', () => {
    expect(() =>
      computeYieldRealisation({ valueMicros: 5n, markMicros: 1n, feesRetainedMicros: 2n }),
    ).toThrow(FeeError);
    expect(() =>
      computeYieldRealisation({ valueMicros: -1n, markMicros: 1n, feesRetainedMicros: 0n }),
    ).toThrow(FeeError);
  });
});
