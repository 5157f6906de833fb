import { computeHarvestFees } from './computeHarvestFees';
import { FeeError } from './errors';
import type { FeeSchedule } from './feeSchedule';
import { assertMicros, defaultFeeSchedule } from './feeSchedule';

export interface ComputePositionClaimParameters {
  /** What the position's tracked shares are worth now, at the venue's share price (micros). */
  readonly valueMicros: bigint;
  /** The value the books last recognised for them (the mark of the last harvest or leg). */
  readonly markMicros: bigint;
  /** Fees booked at harvests and still inside the position on chain. */
  readonly feesRetainedMicros: bigint;
  readonly schedule?: FeeSchedule;
}

export interface ComputePositionClaimReturnType {
  /** Yield the books have not marked yet: `value − mark` (0 on a loss). */
  readonly unmarkedYieldMicros: bigint;
  /** The skim and the profit fee (when switched on) on that yield, by `computeHarvestFees`. */
  readonly unmarkedFeeMicros: bigint;
  /** The protocol's share of the position: retained + unmarked fees, at most the value. */
  readonly claimMicros: bigint;
}

/**
 * The protocol's share of a venue position the owner holds directly (Sui, plain EVM venues):
 * the fees its harvests retained inside it plus the fees on the yield since the last mark,
 * priced exactly as a harvest would price them (the skim, then the profit fee when the schedule
 * switches it on). An exit pays its part of this claim to the treasury as the plan's skim leg.
 *
 * @example
 * computePositionClaim({ valueMicros: 45_000_000n, markMicros: 44_000_000n, feesRetainedMicros: 200_000n })
 * // { unmarkedYieldMicros: 1_000_000n, unmarkedFeeMicros: 50_000n, claimMicros: 250_000n }
 */
export function computePositionClaim({
  valueMicros,
  markMicros,
  feesRetainedMicros,
  schedule = defaultFeeSchedule,
}: ComputePositionClaimParameters): ComputePositionClaimReturnType {
  assertMicros(valueMicros, 'valueMicros');
  assertMicros(markMicros, 'markMicros');
  assertMicros(feesRetainedMicros, 'feesRetainedMicros');
  const unmarkedYieldMicros = valueMicros > markMicros ? valueMicros - markMicros : 0n;
  const fees = computeHarvestFees({ grossYieldMicros: unmarkedYieldMicros, schedule });
  const unmarkedFeeMicros = fees.protocolFeeMicros + fees.profitFeeMicros;
  const owed = feesRetainedMicros + unmarkedFeeMicros;
  return {
    unmarkedYieldMicros,
    unmarkedFeeMicros,
    claimMicros: owed > valueMicros ? valueMicros : owed,
  };
}

export interface ComputeWithdrawalSkimParameters {
  /** What the withdrawal takes out of the venue (micros); at most the position's value. */
  readonly grossMicros: bigint;
  readonly positionValueMicros: bigint;
  /** The protocol's share of the position (`computePositionClaim`); at most its value. */
  readonly claimMicros: bigint;
}

export interface ComputeWithdrawalSkimReturnType {
  readonly grossMicros: bigint;
  /** `floor(claim × gross / value)`: the skim leg's amount, to the treasury. */
  readonly skimMicros: bigint;
  /** What the owner keeps: `gross − skim`. */
  readonly netMicros: bigint;
}

function assertPosition(positionValueMicros: bigint, claimMicros: bigint): void {
  assertMicros(positionValueMicros, 'positionValueMicros');
  assertMicros(claimMicros, 'claimMicros');
  if (claimMicros > positionValueMicros) {
    throw new FeeError('claimMicros exceeds the position value', { field: 'claimMicros' });
  }
}

const skimOf = (gross: bigint, value: bigint, claim: bigint) =>
  value === 0n ? 0n : (claim * gross) / value;

/**
 * The skim a withdrawal of `grossMicros` pays: its pro-rata part of the protocol's claim, rounded
 * down (the owner's favour). A full exit (`gross == value`) pays the whole claim.
 * `skimMicros + netMicros === grossMicros` always.
 *
 * @example
 * computeWithdrawalSkim({ grossMicros: 22_000_000n, positionValueMicros: 44_000_000n, claimMicros: 200_000n })
 * // { grossMicros: 22_000_000n, skimMicros: 100_000n, netMicros: 21_900_000n }
 */
export function computeWithdrawalSkim({
  grossMicros,
  positionValueMicros,
  claimMicros,
}: ComputeWithdrawalSkimParameters): ComputeWithdrawalSkimReturnType {
  assertPosition(positionValueMicros, claimMicros);
  assertMicros(grossMicros, 'grossMicros');
  if (grossMicros > positionValueMicros) {
    throw new FeeError('grossMicros exceeds the position value', { field: 'grossMicros' });
  }
  const skimMicros = skimOf(grossMicros, positionValueMicros, claimMicros);
  return { grossMicros, skimMicros, netMicros: grossMicros - skimMicros };
}

export interface GrossUpWithdrawalParameters {
  /** What the owner asked to receive (micros). */
  readonly netMicros: bigint;
  readonly positionValueMicros: bigint;
  readonly claimMicros: bigint;
}

/**
 * The smallest withdrawal whose skim leaves the owner exactly `netMicros`: a partial withdrawal
 * of X takes `gross` out of the venue, pays `computeWithdrawalSkim(gross).skimMicros` to the
 * treasury and leaves the owner X. It exists for every X up to `value − claim` (the net of a full
 * exit), because one more micro of gross adds at most one micro of skim. More throws FeeError
 * (field `netMicros`).
 *
 * @example
 * grossUpWithdrawal({ netMicros: 21_900_000n, positionValueMicros: 44_000_000n, claimMicros: 200_000n })
 * // { grossMicros: 22_000_000n, skimMicros: 100_000n, netMicros: 21_900_000n }
 */
export function grossUpWithdrawal({
  netMicros,
  positionValueMicros,
  claimMicros,
}: GrossUpWithdrawalParameters): ComputeWithdrawalSkimReturnType {
  assertPosition(positionValueMicros, claimMicros);
  assertMicros(netMicros, 'netMicros');
  const ownerShare = positionValueMicros - claimMicros;
  if (netMicros > ownerShare) {
    throw new FeeError(`netMicros exceeds what the owner can take out (${ownerShare})`, {
      field: 'netMicros',
    });
  }
  if (netMicros === 0n) return { grossMicros: 0n, skimMicros: 0n, netMicros: 0n };
  // net(g) = g − floor(claim·g/value) = ceil(g·ownerShare/value); the smallest g with
  // net(g) ≥ X is floor((X − 1)·value / ownerShare) + 1, and net moves by 0 or 1 per micro.
  const grossMicros = ((netMicros - 1n) * positionValueMicros) / ownerShare + 1n;
  return computeWithdrawalSkim({ grossMicros, positionValueMicros, claimMicros });
}
