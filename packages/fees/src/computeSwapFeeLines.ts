import { bpsOf } from './bpsOf';
import { FeeError } from './errors';
import type { FeeSchedule } from './feeSchedule';
import { defaultFeeSchedule } from './feeSchedule';

export interface ComputeSwapFeeLinesParameters {
  readonly amountInMicros: bigint;
  /** The pool's own fee, as the provider quotes it. */
  readonly poolFeeBps: number;
  readonly schedule?: FeeSchedule;
}

export interface SwapFeeLine {
  readonly kind: 'service_swap_fee' | 'pool_fee';
  readonly bps: number;
  readonly amountMicros: bigint;
}

export interface ComputeSwapFeeLinesReturnType {
  readonly lines: readonly [SwapFeeLine, SwapFeeLine];
  readonly totalFeeMicros: bigint;
  readonly netAmountInMicros: bigint;
}

/**
 * Fee lines of a swap: the service's swap fee plus the pool fee, each rounded down.
 * `totalFeeMicros + netAmountInMicros === amountInMicros`.
 *
 * @example
 * computeSwapFeeLines({ amountInMicros: 1_000_000n, poolFeeBps: 30 }).totalFeeMicros // 4_000n
 */
export function computeSwapFeeLines({
  amountInMicros,
  poolFeeBps,
  schedule = defaultFeeSchedule,
}: ComputeSwapFeeLinesParameters): ComputeSwapFeeLinesReturnType {
  const service = bpsOf(amountInMicros, schedule.swapFeeBps);
  const pool = bpsOf(amountInMicros, poolFeeBps);
  const totalFeeMicros = service + pool;
  if (totalFeeMicros > amountInMicros) {
    throw new FeeError('swap fees exceed the amount', { field: 'poolFeeBps' });
  }
  return {
    lines: [
      { kind: 'service_swap_fee', bps: schedule.swapFeeBps, amountMicros: service },
      { kind: 'pool_fee', bps: poolFeeBps, amountMicros: pool },
    ],
    totalFeeMicros,
    netAmountInMicros: amountInMicros - totalFeeMicros,
  };
}
