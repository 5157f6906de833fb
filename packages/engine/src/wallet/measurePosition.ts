import { errorMessage, formatMicros } from '@yieldrouter/schemas';
import { computeHarvestFees, defaultFeeSchedule } from '@yieldrouter/fees';
import type { HarvestBooking, TrackedPosition } from '@yieldrouter/ledger';
import type {
  Chain,
  HarvestPositionResult,
  PositionReading,
  VenueOnChain,
  VenueStandard,
} from '@yieldrouter/schemas';
import { mapWithLimit } from '../mapWithLimit';
import type { VenueConfig } from '../venues/venueConfig';
import { venueOnChain } from '../venues/venueConfig';
import type { HarvestPositionsParameters } from './harvest';
import { bookingOf, harvestAmounts } from './harvestBooking';
import { ownerOn } from './walletAddress';

/** Chain reads of a harvest running at once. */
const READ_CONCURRENCY = 16;
export const ZERO = '0';

function venueOf(position: TrackedPosition, venues: VenueConfig): VenueOnChain {
  return venueOnChain(venues, {
    venueId: position.venueId,
    chain: position.chain as Chain,
    standard: position.standard as VenueStandard,
  });
}

export function positionResult(
  position: TrackedPosition,
  fields: Partial<HarvestPositionResult> & Pick<HarvestPositionResult, 'outcome'>,
): HarvestPositionResult {
  return {
    chain: position.chain as Chain,
    opportunityId: position.opportunityId,
    venueId: position.venueId,
    harvestId: null,
    valueMicros: null,
    basisMicros: null,
    untrackedMicros: null,
    grossYieldMicros: ZERO,
    protocolFeeMicros: ZERO,
    profitFeeMicros: ZERO,
    netYieldMicros: ZERO,
    ...fields,
  };
}

/** The position on chain through the adapter; any failure is a reason, never a number. */
export async function readPositionOnChain(
  parameters: Pick<HarvestPositionsParameters, 'adapters' | 'venues'>,
  position: TrackedPosition,
): Promise<PositionReading> {
  try {
    const owner = ownerOn(parameters.adapters, position.wallet, position.chain as Chain);
    return await parameters.adapters[position.chain as Chain].readPosition(
      venueOf(position, parameters.venues),
      owner,
      position.shares,
    );
  } catch (error) {
    return {
      status: 'unavailable',
      reason: 'rpc_error',
      detail: `position_read_failed: ${errorMessage(error)}`,
    };
  }
}

/** A measured position: its answer, and what to book when it has yield to book. */
export interface Measured {
  readonly position: TrackedPosition;
  readonly result: HarvestPositionResult;
  readonly booking?: HarvestBooking;
}

/**
 * One position measured by its share price: the shares our settled legs minted are worth
 * `sharesValueMicros` now; gross yield is that minus the mark the books recognised for them.
 * Money on the venue our plans did not put there is `untrackedMicros`, never yield. A chain
 * that holds fewer shares than the books track is a drift, not a number to harvest from.
 */
async function measure(
  parameters: HarvestPositionsParameters,
  position: TrackedPosition,
): Promise<Measured> {
  if (!position.sharesKnown) {
    const reason = 'shares_unknown: the position predates share tracking; exit and enter again';
    return { position, result: positionResult(position, { outcome: 'unavailable', reason }) };
  }
  const reading = await readPositionOnChain(parameters, position);
  if (reading.status !== 'ok') {
    const reason = `${reading.reason}: ${reading.detail}`;
    return { position, result: positionResult(position, { outcome: 'unavailable', reason }) };
  }
  if (reading.ownerShares < position.shares) {
    const reason = `shares_missing: the chain holds ${reading.ownerShares} of the ${position.shares} shares the books track`;
    return { position, result: positionResult(position, { outcome: 'unavailable', reason }) };
  }
  const untrackedMicros =
    reading.ownerValueMicros > reading.sharesValueMicros
      ? reading.ownerValueMicros - reading.sharesValueMicros
      : 0n;
  const measured = {
    valueMicros: formatMicros(reading.sharesValueMicros),
    basisMicros: formatMicros(position.markMicros),
    untrackedMicros: formatMicros(untrackedMicros),
  };
  if (reading.sharesValueMicros <= position.markMicros) {
    return { position, result: positionResult(position, { outcome: 'no_yield', ...measured }) };
  }
  const fees = computeHarvestFees({
    grossYieldMicros: reading.sharesValueMicros - position.markMicros,
    schedule: parameters.schedule ?? defaultFeeSchedule,
  });
  if (parameters.execute) {
    const result = positionResult(position, {
      outcome: 'prepared',
      ...measured,
      ...harvestAmounts(fees),
    });
    return { position, result };
  }
  const booking = bookingOf(parameters, position, reading, fees, untrackedMicros);
  const result = positionResult(position, {
    outcome: 'harvested',
    harvestId: booking.harvestId,
    ...measured,
    ...harvestAmounts(fees),
  });
  return { position, result, booking };
}

export const measureAll = (
  parameters: HarvestPositionsParameters,
  positions: readonly TrackedPosition[],
) => mapWithLimit(positions, READ_CONCURRENCY, (position) => measure(parameters, position));
