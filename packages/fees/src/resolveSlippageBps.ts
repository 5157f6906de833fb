import { FeeError } from './errors';
import type { FeeSchedule } from './feeSchedule';
import { defaultFeeSchedule } from './feeSchedule';

/**
 * The slippage bound of a swap: the default (100 bps) when not given; an integer from 0 to
 * the maximum (500 bps) otherwise.
 *
 * @example
 * resolveSlippageBps() // 100
 * resolveSlippageBps(600) // throws FeeError (field: 'slippageBps')
 */
export function resolveSlippageBps(
  requested?: number,
  schedule: FeeSchedule = defaultFeeSchedule,
): number {
  if (requested === undefined) return schedule.slippage.defaultBps;
  if (!Number.isInteger(requested) || requested < 0 || requested > schedule.slippage.maxBps) {
    throw new FeeError(`slippageBps must be an integer from 0 to ${schedule.slippage.maxBps}`, {
      field: 'slippageBps',
    });
  }
  return requested;
}
