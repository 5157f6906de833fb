import { BPS_DENOMINATOR, assertMicros, defaultFeeSchedule } from './feeSchedule';
import { assertYieldSkimBps } from './computeYieldSkim';
import { FeeError } from './errors';

export interface ComputeVenueSkimParameters {
  /** Principal recorded for the owner's position in this venue (USDC micros). */
  readonly principalMicros: bigint;
  /** Receipt tokens (shares) recorded with that principal. */
  readonly sharesHeld: bigint;
  /** Receipt tokens the withdrawal burns; at most `sharesHeld`. */
  readonly sharesBurnt: bigint;
  /** USDC the venue paid for them (micros). */
  readonly receivedMicros: bigint;
  /** Defaults to the published skim (500 bps); at most 1000. */
  readonly skimBps?: number;
}

export interface ComputeVenueSkimReturnType {
  /** The principal the burnt shares carry: `ceil(principal × burnt / held)` (the owner's favour). */
  readonly principalPartMicros: bigint;
  /** What the venue paid above that principal (0 on a loss). */
  readonly yieldMicros: bigint;
  /** `floor(yield × bps / 10000)`: paid to the treasury. */
  readonly skimMicros: bigint;
  /** What the owner keeps: `received − skim`. */
  readonly netMicros: bigint;
  /** The position after the withdrawal. */
  readonly principalLeftMicros: bigint;
  readonly sharesLeft: bigint;
}

/**
 * The skim of a withdrawal from a venue position, by the rule the Solana router enforces on chain
 * in `withdraw_from_venue` (docs/venues/solana.md, "The yield skim") and the plans of the other
 * chains carry as a skim leg: the burnt shares take their part of the principal with them, the
 * yield is what was paid above it, and the skim is the yield's share, rounded down.
 * `skimMicros + netMicros === receivedMicros` always.
 *
 * @example
 * computeVenueSkim({ principalMicros: 40_000_000n, sharesHeld: 40_000_000n, sharesBurnt: 20_000_000n, receivedMicros: 22_000_000n })
 * // { principalPartMicros: 20_000_000n, yieldMicros: 2_000_000n, skimMicros: 100_000n, netMicros: 21_900_000n, … }
 */
export function computeVenueSkim({
  principalMicros,
  sharesHeld,
  sharesBurnt,
  receivedMicros,
  skimBps = defaultFeeSchedule.yieldSkimBps,
}: ComputeVenueSkimParameters): ComputeVenueSkimReturnType {
  assertYieldSkimBps(skimBps);
  assertMicros(principalMicros, 'principalMicros');
  assertMicros(sharesHeld, 'sharesHeld');
  assertMicros(sharesBurnt, 'sharesBurnt');
  assertMicros(receivedMicros, 'receivedMicros');
  if (sharesBurnt > sharesHeld) {
    throw new FeeError('sharesBurnt exceeds the shares recorded for the position', {
      field: 'sharesBurnt',
    });
  }
  const principalPartMicros =
    sharesBurnt === 0n ? 0n : (principalMicros * sharesBurnt + sharesHeld - 1n) / sharesHeld;
  const yieldMicros =
    receivedMicros > principalPartMicros ? receivedMicros - principalPartMicros : 0n;
  const skimMicros = (yieldMicros * BigInt(skimBps)) / BPS_DENOMINATOR;
  return {
    principalPartMicros,
    yieldMicros,
    skimMicros,
    netMicros: receivedMicros - skimMicros,
    principalLeftMicros: principalMicros - principalPartMicros,
    sharesLeft: sharesHeld - sharesBurnt,
  };
}
