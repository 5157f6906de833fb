import { bpsOf } from './bpsOf';
import type { FeeSchedule } from './feeSchedule';
import { assertMicros, defaultFeeSchedule } from './feeSchedule';

export interface ComputeGasSponsorFeeParameters {
  /** The USDC the top-up swap sells, fee included. */
  readonly grossMicros: bigint;
  readonly schedule?: FeeSchedule;
}

export interface ComputeGasSponsorFeeReturnType {
  readonly bps: number;
  /** `gasSponsorFeeBps` of the gross, rounded down (in the owner's favour). */
  readonly feeMicros: bigint;
  /** What is swapped for native gas: gross − fee, exactly. */
  readonly netMicros: bigint;
}

/**
 * The service's gas-sponsor fee line on a top-up: `gasSponsorFeeBps` of the USDC sold, rounded
 * down, and the remainder that buys the native gas (fee + net == gross).
 *
 * @example
 * computeGasSponsorFee({ grossMicros: 2_000_001n }) // { bps: 50, feeMicros: 10_000n, netMicros: 1_990_001n }
 */
export function computeGasSponsorFee({
  grossMicros,
  schedule = defaultFeeSchedule,
}: ComputeGasSponsorFeeParameters): ComputeGasSponsorFeeReturnType {
  assertMicros(grossMicros, 'grossMicros');
  const feeMicros = bpsOf(grossMicros, schedule.gasSponsorFeeBps);
  return { bps: schedule.gasSponsorFeeBps, feeMicros, netMicros: grossMicros - feeMicros };
}
