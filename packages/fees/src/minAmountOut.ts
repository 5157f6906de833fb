import { BPS_DENOMINATOR, assertBps, assertMicros } from './feeSchedule';

export interface MinAmountOutParameters {
  readonly quotedAmountOutMicros: bigint;
  readonly slippageBps: number;
}

/**
 * The least the owner accepts: `floor(quoted × (10000 − slippage) / 10000)`.
 *
 * @example
 * minAmountOut({ quotedAmountOutMicros: 1_000_000n, slippageBps: 100 }) // 990_000n
 */
export function minAmountOut({
  quotedAmountOutMicros,
  slippageBps,
}: MinAmountOutParameters): bigint {
  assertMicros(quotedAmountOutMicros, 'quotedAmountOutMicros');
  const bps = assertBps(slippageBps, 'slippageBps');
  return (quotedAmountOutMicros * (BPS_DENOMINATOR - bps)) / BPS_DENOMINATOR;
}
