import { bpsOf } from './bpsOf';
import { FeeError } from './errors';
import type { FeeSchedule } from './feeSchedule';
import { assertMicros, defaultFeeSchedule } from './feeSchedule';
import { minAmountOut } from './minAmountOut';

/** Which side of a swap a fee is charged in. */
export type SwapSide = 'input' | 'output';

export interface ComputeSwapPlanFeesParameters {
  readonly amountInMicros: bigint;
  /** What the quote source says the owner receives (net of every fee it charges). */
  readonly quotedAmountOutMicros: bigint;
  /** The fee the quote source reports it keeps (the pool / DEX fee), in the side it names. */
  readonly poolFee: { readonly amountMicros: bigint; readonly side: SwapSide } | null;
  /** Already resolved (`resolveSlippageBps`). */
  readonly slippageBps: number;
  readonly schedule?: FeeSchedule;
}

export interface SwapPlanFeeLine {
  readonly kind: 'service_swap_fee' | 'pool_fee';
  /** Set where the line is a rate on the amount in (the service fee). */
  readonly bps?: number;
  readonly amountMicros: bigint;
  readonly side: SwapSide;
  readonly payer: 'owner';
}

export interface ComputeSwapPlanFeesReturnType {
  readonly lines: readonly SwapPlanFeeLine[];
  /** The input-side lines summed: what the plan's `feeMicros` says. */
  readonly feeMicros: bigint;
  /** What is swapped after the service fee: `feeMicros`' service part + this == amount in. */
  readonly netAmountInMicros: bigint;
  /** The least the owner accepts (`minAmountOut` of the quote at the slippage bound). */
  readonly minAmountOutMicros: bigint;
}

/**
 * The fee lines and the slippage bound of a quoted swap: the service's swap fee (`swapFeeBps` of
 * the schedule, taken from the input, rounded down), the pool fee as the quote source reported
 * it, and `minAmountOut` of the quoted amount. Bigint only.
 *
 * @example
 * computeSwapPlanFees({
 *   amountInMicros: 1_000_000n,
 *   quotedAmountOutMicros: 500_000n,
 *   poolFee: { amountMicros: 1_500n, side: 'output' },
 *   slippageBps: 100,
 * }).minAmountOutMicros // 495_000n
 */
export function computeSwapPlanFees({
  amountInMicros,
  quotedAmountOutMicros,
  poolFee,
  slippageBps,
  schedule = defaultFeeSchedule,
}: ComputeSwapPlanFeesParameters): ComputeSwapPlanFeesReturnType {
  assertMicros(amountInMicros, 'amountInMicros');
  assertMicros(quotedAmountOutMicros, 'quotedAmountOutMicros');
  const service = bpsOf(amountInMicros, schedule.swapFeeBps);
  const lines: SwapPlanFeeLine[] = [
    {
      kind: 'service_swap_fee',
      bps: schedule.swapFeeBps,
      amountMicros: service,
      side: 'input',
      payer: 'owner',
    },
  ];
  if (poolFee) {
    assertMicros(poolFee.amountMicros, 'poolFee.amountMicros');
    lines.push({
      kind: 'pool_fee',
      amountMicros: poolFee.amountMicros,
      side: poolFee.side,
      payer: 'owner',
    });
  }
  const feeMicros = lines
    .filter((line) => line.side === 'input')
    .reduce((total, line) => total + line.amountMicros, 0n);
  if (feeMicros > amountInMicros) {
    throw new FeeError('swap fees exceed the amount in', { field: 'poolFee.amountMicros' });
  }
  return {
    lines,
    feeMicros,
    netAmountInMicros: amountInMicros - service,
    minAmountOutMicros: minAmountOut({ quotedAmountOutMicros, slippageBps }),
  };
}
