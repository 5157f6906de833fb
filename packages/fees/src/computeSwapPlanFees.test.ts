import fc from 'fast-check';
import { computeSwapPlanFees } from './computeSwapPlanFees';
import type { SwapSide } from './computeSwapPlanFees';
import { FeeError } from './errors';
import { MAX_MICROS, defaultFeeSchedule } from './feeSchedule';

describe('computeSwapPlanFees', () => {
  it('service fee from the schedule on the input, pool fee as reported, minOut at the bound', () => {
    const result = computeSwapPlanFees({
      amountInMicros: 100_000_000n,
      quotedAmountOutMicros: 33_000_000_000_000_000n,
      poolFee: { amountMicros: 99_000_000_000_000n, side: 'output' },
      slippageBps: 100,
    });
    expect(result.lines).toEqual([
      { kind: 'service_swap_fee', bps: 10, amountMicros: 100_000n, side: 'input', payer: 'owner' },
      { kind: 'pool_fee', amountMicros: 99_000_000_000_000n, side: 'output', payer: 'owner' },
    ]);
    expect(result.feeMicros).toBe(100_000n);
    expect(result.netAmountInMicros).toBe(99_900_000n);
    expect(result.minAmountOutMicros).toBe(32_670_000_000_000_000n);
  });

  it('rounds the service fee down and takes the schedule it is given', () => {
    const result = computeSwapPlanFees({
      amountInMicros: 999n,
      quotedAmountOutMicros: 7n,
      poolFee: null,
      slippageBps: 0,
      schedule: { ...defaultFeeSchedule, swapFeeBps: 30 },
    });
    expect(result.lines).toHaveLength(1);
    expect(result.feeMicros).toBe(2n);
    expect(result.minAmountOutMicros).toBe(7n);
  });

  it('refuses input-side fees above the amount and out-of-range inputs', () => {
    expect(() =>
      computeSwapPlanFees({
        amountInMicros: 10n,
        quotedAmountOutMicros: 1n,
        poolFee: { amountMicros: 11n, side: 'input' },
        slippageBps: 100,
      }),
    ).toThrow(FeeError);
    expect(() =>
      computeSwapPlanFees({
        amountInMicros: MAX_MICROS + 1n,
        quotedAmountOutMicros: 1n,
        poolFee: null,
        slippageBps: 100,
      }),
    ).toThrow(FeeError);
  });

  it('property: minOut <= quoted, input lines sum to feeMicros, fee + net == in, all bigint', () => {
    const micros = fc.bigInt({ min: 0n, max: MAX_MICROS });
    fc.assert(
      fc.property(
        micros,
        micros,
        fc.option(
          fc.record({ amountMicros: micros, side: fc.constantFrom<SwapSide>('input', 'output') }),
        ),
        fc.integer({ min: 0, max: 500 }),
        fc.integer({ min: 0, max: 10_000 }),
        (amountIn, quoted, poolFee, slippageBps, swapFeeBps) => {
          const schedule = { ...defaultFeeSchedule, swapFeeBps };
          const service = (amountIn * BigInt(swapFeeBps)) / 10_000n;
          const inputPool = poolFee?.side === 'input' ? poolFee.amountMicros : 0n;
          if (service + inputPool > amountIn) {
            expect(() =>
              computeSwapPlanFees({
                amountInMicros: amountIn,
                quotedAmountOutMicros: quoted,
                poolFee,
                slippageBps,
                schedule,
              }),
            ).toThrow(FeeError);
            return;
          }
          const result = computeSwapPlanFees({
            amountInMicros: amountIn,
            quotedAmountOutMicros: quoted,
            poolFee,
            slippageBps,
            schedule,
          });
          expect(result.minAmountOutMicros <= quoted).toBe(true);
          expect(result.minAmountOutMicros >= 0n).toBe(true);
          const inputSum = result.lines
            .filter((line) => line.side === 'input')
            .reduce((total, line) => total + line.amountMicros, 0n);
          expect(inputSum).toBe(result.feeMicros);
          expect(service + result.netAmountInMicros).toBe(amountIn);
          for (const line of result.lines) {
            expect(typeof line.amountMicros).toBe('bigint');
            if (line.bps !== undefined) expect(Number.isInteger(line.bps)).toBe(true);
          }
          expect(typeof result.minAmountOutMicros).toBe('bigint');
        },
      ),
    );
  });
});
