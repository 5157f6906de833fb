import { computePositionClaim } from './computeWithdrawalSkim';
import { FeeError } from './errors';
import type { FeeSchedule } from './feeSchedule';
import { assertMicros, defaultFeeSchedule } from './feeSchedule';

export interface ComputeYieldRealisationParameters {
  /** What the position's tracked shares are worth now, at the venue's share price (micros). */
  readonly valueMicros: bigint;
  /** The books' mark for them: the owner's staked balance plus the fees retained. */
  readonly markMicros: bigint;
  /** Fees booked at harvests and still inside the position on chain; at most the mark. */
  readonly feesRetainedMicros: bigint;
  readonly schedule?: FeeSchedule;
}

export interface ComputeYieldRealisationReturnType {
  /** What the venue pays: everything above the owner's staked balance (`value − staked`). */
  readonly grossMicros: bigint;
  /** The protocol's whole claim (`computePositionClaim`), to the treasury. */
  readonly skimMicros: bigint;
  /** What the owner receives: the net yield since the last mark (`gross − skim`). */
  readonly netMicros: bigint;
}

/**
 * A harvest with `execute: true` (issue #46): it realises the yield above the owner's staked
 * balance. The venue pays `value − staked`; the protocol's whole claim on the position (the fees
 * its harvests retained plus the fees on the yield since the last mark, the skim then the profit
 * fee when switched on) goes to the treasury; the owner receives the rest, which is exactly the
 * net yield a harvest would compound. The staked balance stays in the venue.
 * `skimMicros + netMicros === grossMicros` always; nothing to realise on a loss.
 *
 * @example
 * computeYieldRealisation({ valueMicros: 11_000_000n, markMicros: 10_000_000n, feesRetainedMicros: 0n })
 * // { grossMicros: 1_000_000n, skimMicros: 50_000n, netMicros: 950_000n }
 */
export function computeYieldRealisation({
  valueMicros,
  markMicros,
  feesRetainedMicros,
  schedule = defaultFeeSchedule,
}: ComputeYieldRealisationParameters): ComputeYieldRealisationReturnType {
  assertMicros(valueMicros, 'valueMicros');
  assertMicros(markMicros, 'markMicros');
  assertMicros(feesRetainedMicros, 'feesRetainedMicros');
  if (feesRetainedMicros > markMicros) {
    throw new FeeError('feesRetainedMicros exceeds the mark', { field: 'feesRetainedMicros' });
  }
  const stakedMicros = markMicros - feesRetainedMicros;
  if (valueMicros <= markMicros) return { grossMicros: 0n, skimMicros: 0n, netMicros: 0n };
  const { claimMicros } = computePositionClaim({
    valueMicros,
    markMicros,
    feesRetainedMicros,
    schedule,
  });
  const grossMicros = valueMicros - stakedMicros;
  return { grossMicros, skimMicros: claimMicros, netMicros: grossMicros - claimMicros };
}
