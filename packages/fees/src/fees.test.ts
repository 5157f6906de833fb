import { bpsOf } from './bpsOf';
import { computeBridgeFeeLines } from './computeBridgeFeeLines';
import { computeHarvestFees } from './computeHarvestFees';
import { computePrincipalFee } from './computePrincipalFee';
import { computeSwapFeeLines } from './computeSwapFeeLines';
import { computeYieldSkim } from './computeYieldSkim';
import { FeeError } from './errors';
import { MAX_MICROS, assertFeeSchedule, defaultFeeSchedule } from './feeSchedule';
import { minAmountOut } from './minAmountOut';
import { resolveSlippageBps } from './resolveSlippageBps';
import { toFeeScheduleDocument } from './toFeeScheduleDocument';

describe('fees', () => {
  it('the published schedule is consistent', () => {
    expect(() => assertFeeSchedule(defaultFeeSchedule)).not.toThrow();
    expect(() => assertFeeSchedule({ ...defaultFeeSchedule, yieldSkimBps: 1001 })).toThrow(
      FeeError,
    );
  });

  it('skim of 1 USDC at 500 bps is 0.05 USDC', () => {
    expect(computeYieldSkim({ grossYieldMicros: 1_000_000n })).toEqual({
      grossYieldMicros: 1_000_000n,
      skimMicros: 50_000n,
      netMicros: 950_000n,
    });
  });

  it('rounds the fee down, in the user’s favour', () => {
    expect(computeYieldSkim({ grossYieldMicros: 19n })).toMatchObject({
      skimMicros: 0n,
      netMicros: 19n,
    });
    expect(computeYieldSkim({ grossYieldMicros: 39n })).toMatchObject({
      skimMicros: 1n,
      netMicros: 38n,
    });
  });

  it('harvest: profit fee off → only the skim', () => {
    expect(computeHarvestFees({ grossYieldMicros: 2_000_000n })).toEqual({
      grossYieldMicros: 2_000_000n,
      protocolFeeMicros: 100_000n,
      profitFeeMicros: 0n,
      netYieldMicros: 1_900_000n,
    });
  });

  it('harvest: profit fee on → 1% of the post-skim yield, capped at 10 USD', () => {
    const schedule = {
      ...defaultFeeSchedule,
      harvestProfitFee: { ...defaultFeeSchedule.harvestProfitFee, enabled: true },
    };
    expect(computeHarvestFees({ grossYieldMicros: 2_000_000n, schedule }).profitFeeMicros).toBe(
      19_000n,
    );
    const big = computeHarvestFees({ grossYieldMicros: 10_000_000_000n, schedule });
    expect(big.profitFeeMicros).toBe(10_000_000n);
  });

  it('principal fee is 0 on deposit, withdraw and route', () => {
    for (const kind of ['deposit', 'withdraw', 'route'] as const) {
      expect(computePrincipalFee({ amountMicros: 5_000_000n, kind })).toEqual({
        feeMicros: 0n,
        netMicros: 5_000_000n,
      });
    }
  });

  it('slippage: default 100, max 500, integers only', () => {
    expect(resolveSlippageBps()).toBe(100);
    expect(resolveSlippageBps(500)).toBe(500);
    for (const bad of [501, -1, 1.5, Number.NaN]) {
      try {
        resolveSlippageBps(bad);
        throw new Error('expected a FeeError');
      } catch (error) {
        expect(error).toBeInstanceOf(FeeError);
        expect((error as FeeError).field).toBe('slippageBps');
      }
    }
    expect(minAmountOut({ quotedAmountOutMicros: 1_000_000n, slippageBps: 100 })).toBe(990_000n);
  });

  it('swap lines: service 10 bps + pool fee', () => {
    const result = computeSwapFeeLines({ amountInMicros: 1_000_000n, poolFeeBps: 30 });
    expect(result.lines).toEqual([
      { kind: 'service_swap_fee', bps: 10, amountMicros: 1_000n },
      { kind: 'pool_fee', bps: 30, amountMicros: 3_000n },
    ]);
    expect(result.netAmountInMicros).toBe(996_000n);
  });

  it('bridge lines: service 10 bps + rail fee; refuses fees above the amount', () => {
    const result = computeBridgeFeeLines({ amountMicros: 10_000_000n, railFeeMicros: 50_000n });
    expect(result.totalFeeMicros).toBe(60_000n);
    expect(result.netDeliveredMicros).toBe(9_940_000n);
    expect(() => computeBridgeFeeLines({ amountMicros: 10n, railFeeMicros: 11n })).toThrow(
      FeeError,
    );
  });

  it('refuses negative and over-range amounts and bps', () => {
    expect(() => bpsOf(-1n, 10)).toThrow(FeeError);
    expect(() => bpsOf(MAX_MICROS + 1n, 10)).toThrow(FeeError);
    expect(() => bpsOf(1n, 10_001)).toThrow(FeeError);
    expect(() => bpsOf(1n, 1.5)).toThrow(FeeError);
  });

  it('document form has string amounts', () => {
    expect(toFeeScheduleDocument(defaultFeeSchedule).harvestProfitFee).toEqual({
      bps: 100,
      capMicros: '10000000',
      enabled: false,
    });
  });
});
