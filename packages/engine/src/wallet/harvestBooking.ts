import { formatMicros } from '@yieldrouter/schemas';
import type { computeHarvestFees } from '@yieldrouter/fees';
import { newHarvestId } from '@yieldrouter/ledger';
import type { HarvestBooking, LedgerChain, TrackedPosition } from '@yieldrouter/ledger';
import type {
  HarvestCompletedData,
  PositionReading,
  PositionUpdatedData,
} from '@yieldrouter/schemas';
import type { HarvestPositionsParameters } from './harvest';

/** A harvest's fee lines as the answer shows them (decimal strings). */
export const harvestAmounts = (fees: ReturnType<typeof computeHarvestFees>) => ({
  grossYieldMicros: formatMicros(fees.grossYieldMicros),
  protocolFeeMicros: formatMicros(fees.protocolFeeMicros),
  profitFeeMicros: formatMicros(fees.profitFeeMicros),
  netYieldMicros: formatMicros(fees.netYieldMicros),
});

/** The entry, the harvest row and the events of a position's yield (booked in one statement). */
export function bookingOf(
  parameters: HarvestPositionsParameters,
  position: TrackedPosition,
  reading: Extract<PositionReading, { status: 'ok' }>,
  fees: ReturnType<typeof computeHarvestFees>,
  untrackedMicros: bigint,
): HarvestBooking {
  const { wallet, opportunityId, venueId } = position;
  const chain = position.chain as LedgerChain;
  const harvestId = newHarvestId();
  const feeMicros = fees.protocolFeeMicros + fees.profitFeeMicros;
  const measured = {
    valueMicros: formatMicros(reading.sharesValueMicros),
    basisMicros: formatMicros(position.markMicros),
  };
  const completed: HarvestCompletedData = {
    harvestId,
    wallet,
    chain,
    opportunityId,
    venueId,
    ...measured,
    ...harvestAmounts(fees),
    asOf: reading.asOf.toISOString(),
  };
  const updated: PositionUpdatedData = {
    wallet,
    chain,
    cause: 'harvested',
    planId: null,
    legIndex: null,
    txId: null,
    harvestId,
  };
  return {
    wallet,
    chain,
    opportunityId,
    venueId,
    version: position.version,
    harvestId,
    shares: position.shares,
    valueMicros: reading.sharesValueMicros,
    valueAsOf: reading.asOf,
    basisMicros: position.markMicros,
    grossMicros: fees.grossYieldMicros,
    protocolFeeMicros: fees.protocolFeeMicros,
    profitFeeMicros: fees.profitFeeMicros,
    netMicros: fees.netYieldMicros,
    untrackedMicros,
    markMicros: reading.sharesValueMicros,
    feesRetainedMicros: position.feesRetainedMicros + feeMicros,
    entry: {
      kind: 'harvest',
      dedupeKey: `harvest:${harvestId}`,
      memo: `harvest ${opportunityId} on ${chain}: ${position.shares} shares`,
      postings: [
        { account: { system: 'external', chain }, amountMicros: -fees.grossYieldMicros },
        {
          account: { wallet, chain, bucket: `staked:${opportunityId}` },
          amountMicros: fees.netYieldMicros,
        },
        ...(feeMicros > 0n
          ? [{ account: { system: 'fees:protocol' as const }, amountMicros: feeMicros }]
          : []),
      ],
    },
    events: [
      { type: 'harvest.completed', wallet, payload: completed },
      { type: 'position.updated', wallet, payload: updated },
    ],
    now: parameters.now,
  };
}
