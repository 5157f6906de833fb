import { errorMessage, formatMicros } from '@yieldrouter/schemas';
import { computeHarvestFees, defaultFeeSchedule } from '@yieldrouter/fees';
import type { FeeSchedule } from '@yieldrouter/fees';
import {
  newHarvestId,
  prismaSqlClient,
  readTrackedPositions,
  recordHarvests,
  runLedgerTransaction,
} from '@yieldrouter/ledger';
import type {
  HarvestBooking,
  LedgerChain,
  PrismaClient,
  SqlClient,
  SqlClientOrPrisma,
  TrackedPosition,
  WriteRecorder,
} from '@yieldrouter/ledger';
import type {
  Chain,
  HarvestCompletedData,
  HarvestPositionResult,
  HarvestResult,
  PositionReading,
  PositionUpdatedData,
  VenueOnChain,
  VenueStandard,
} from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { mapWithLimit } from '../mapWithLimit';
import type { VenueConfig } from '../venues/venueConfig';
import { venueOnChain } from '../venues/venueConfig';
import { ledgerWallet, ownerOn } from './walletAddress';

export interface HarvestParameters {
  readonly db: PrismaClient;
  /** The driver for the set-wise harvest statement (`Database.sql`); Prisma when absent. */
  readonly sql?: SqlClient;
  readonly adapters: ChainAdapters;
  readonly venues: VenueConfig;
  /** The wallet as named in the path. */
  readonly address: string;
  /** Asks for the on-chain claim: prepare-only here (202), nothing is booked. */
  readonly execute: boolean;
  /** Whether the server may broadcast on a chain (it still never signs for the owner). */
  readonly broadcastEnabled: (chain: Chain) => boolean;
  readonly schedule?: FeeSchedule;
  /** Only the positions on this chain. */
  readonly chain?: Chain;
  readonly now: Date;
  /**
   * Stores the answer with the bookings (Idempotency-Key): every position is then booked in the
   * one transaction that also records the result, so a retry after any crash gets this answer.
   */
  readonly recordWrite?: WriteRecorder<HarvestResult> | undefined;
}

/** What a harvest of several positions needs (a wallet's, or a batch page's). */
export type HarvestPositionsParameters = Omit<
  HarvestParameters,
  'address' | 'chain' | 'recordWrite'
>;

/** Chain reads of a harvest running at once. */
const READ_CONCURRENCY = 16;
const ZERO = '0';

function venueOf(position: TrackedPosition, venues: VenueConfig): VenueOnChain {
  return venueOnChain(venues, {
    venueId: position.venueId,
    chain: position.chain as Chain,
    standard: position.standard as VenueStandard,
  });
}

function positionResult(
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
async function readOnChain(
  parameters: HarvestPositionsParameters,
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

const amounts = (fees: ReturnType<typeof computeHarvestFees>) => ({
  grossYieldMicros: formatMicros(fees.grossYieldMicros),
  protocolFeeMicros: formatMicros(fees.protocolFeeMicros),
  profitFeeMicros: formatMicros(fees.profitFeeMicros),
  netYieldMicros: formatMicros(fees.netYieldMicros),
});

/** A measured position: its answer, and what to book when it has yield to book. */
interface Measured {
  readonly position: TrackedPosition;
  readonly result: HarvestPositionResult;
  readonly booking?: HarvestBooking;
}

/** The entry, the harvest row and the events of a position's yield (booked in one statement). */
function bookingOf(
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
    ...amounts(fees),
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
  const reading = await readOnChain(parameters, position);
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
    const result = positionResult(position, { outcome: 'prepared', ...measured, ...amounts(fees) });
    return { position, result };
  }
  const booking = bookingOf(parameters, position, reading, fees, untrackedMicros);
  const result = positionResult(position, {
    outcome: 'harvested',
    harvestId: booking.harvestId,
    ...measured,
    ...amounts(fees),
  });
  return { position, result, booking };
}

const RACED =
  'settlement_raced: a leg of this position settled while its value was read; harvest again';

/** Books what has yield in one statement; which positions came back stale (nothing written). */
async function bookMeasured(db: SqlClientOrPrisma, measured: readonly Measured[]) {
  const booked = measured.filter((entry) => entry.booking);
  const outcomes = await recordHarvests(
    db,
    booked.map((entry) => entry.booking as HarvestBooking),
  );
  return new Set(
    booked.filter((_, index) => outcomes[index]?.stale === true).map((entry) => entry.position),
  );
}

const positionKey = (position: TrackedPosition) =>
  `${position.wallet}\n${position.chain}\n${position.opportunityId}`;

const measureAll = (
  parameters: HarvestPositionsParameters,
  positions: readonly TrackedPosition[],
) => mapWithLimit(positions, READ_CONCURRENCY, (position) => measure(parameters, position));

const raced = (position: TrackedPosition) =>
  positionResult(position, { outcome: 'unavailable', reason: RACED });

/**
 * Harvests positions set-wise: each is read on chain (concurrently), measured by its share
 * price, and every position with yield is booked in one statement (`recordHarvests`). A
 * position that moved while it was read (a leg settled, another harvest) is read and measured
 * again once; if it moved again it answers `unavailable` and books nothing.
 */
export async function harvestPositions(
  parameters: HarvestPositionsParameters,
  positions: readonly TrackedPosition[],
): Promise<HarvestPositionResult[]> {
  const measured = await measureAll(parameters, positions);
  const stale = await bookMeasured(parameters.sql ?? parameters.db, measured);
  const again = new Map<string, HarvestPositionResult>();
  if (stale.size > 0) {
    const wallets = [...new Set([...stale].map((position) => position.wallet))];
    const keys = new Set([...stale].map(positionKey));
    const fresh = (await readTrackedPositions(parameters.sql ?? parameters.db, wallets)).filter(
      (position) => keys.has(positionKey(position)),
    );
    const remeasured = await measureAll(parameters, fresh);
    const staleAgain = await bookMeasured(parameters.sql ?? parameters.db, remeasured);
    for (const entry of remeasured) {
      again.set(
        positionKey(entry.position),
        staleAgain.has(entry.position) ? raced(entry.position) : entry.result,
      );
    }
  }
  return measured.map((entry) =>
    stale.has(entry.position)
      ? (again.get(positionKey(entry.position)) ?? raced(entry.position))
      : entry.result,
  );
}

const ZERO_TOTALS = {
  grossYieldMicros: ZERO,
  protocolFeeMicros: ZERO,
  profitFeeMicros: ZERO,
  netYieldMicros: ZERO,
};

function total(positions: readonly HarvestPositionResult[], field: keyof typeof ZERO_TOTALS) {
  return formatMicros(positions.reduce((sum, position) => sum + BigInt(position[field]), 0n));
}

function totals(positions: readonly HarvestPositionResult[]) {
  return {
    grossYieldMicros: total(positions, 'grossYieldMicros'),
    protocolFeeMicros: total(positions, 'protocolFeeMicros'),
    profitFeeMicros: total(positions, 'profitFeeMicros'),
    netYieldMicros: total(positions, 'netYieldMicros'),
  };
}

/** The SPEC outcome from the positions' outcomes (Harvest outcomes table). */
export function summarizeHarvest(
  parameters: Pick<HarvestParameters, 'broadcastEnabled' | 'now'>,
  wallet: string,
  positions: readonly HarvestPositionResult[],
): HarvestResult {
  const base = { wallet, positions: [...positions], asOf: parameters.now.toISOString() };
  const prepared = positions.filter((position) => position.outcome === 'prepared');
  if (prepared.length > 0) {
    const chains = [...new Set(prepared.map((position) => position.chain))];
    const off = chains.filter((chain) => !parameters.broadcastEnabled(chain));
    return {
      ...base,
      mode: 'prepare_only',
      outcome: 'prepared',
      reason:
        off.length > 0
          ? `broadcast_disabled: ${off.join(', ')}; nothing was booked`
          : 'owner_signature_required: the service holds no keys; nothing was booked',
      ...totals(prepared),
      prepared: true,
      httpStatus: 202,
    };
  }
  const harvested = positions.filter((position) => position.outcome === 'harvested');
  if (harvested.length > 0) {
    return {
      ...base,
      mode: 'compound',
      outcome: 'harvested',
      ...totals(harvested),
      httpStatus: 200,
    };
  }
  const unavailable = positions.find((position) => position.outcome === 'unavailable');
  if (unavailable) {
    return {
      ...base,
      mode: 'harvest',
      outcome: 'unavailable',
      reason: unavailable.reason ?? 'yield_source_unavailable',
      ...ZERO_TOTALS,
      httpStatus: 200,
    };
  }
  return {
    ...base,
    mode: 'no_op_harvest',
    outcome: 'blocked',
    reason: positions.length === 0 ? 'nothing_staked' : 'no_yield',
    ...ZERO_TOTALS,
    httpStatus: 200,
  };
}

/**
 * POST /wallets/{address}/harvest (permissionless): books the yield each venue position has
 * earned since it was last marked, as the venue's share price proves it on the shares our
 * settled legs minted (DESIGN §4): never "value minus basis", never from the request. The skim
 * (500 bps) and the profit fee (when switched on) go to protocol fees and stay inside the
 * position on chain; the rest is compounded into the staked balance, all through packages/fees.
 * Outside money on the same venue (an outside deposit, a leg not settled yet) is reported as
 * untracked and never skimmed, so no pending plan has to block a harvest. The mark is read and
 * moved under the position's version: a leg that settles while the value is read makes the
 * harvest measure again. `execute: true` prepares only: 202 with `prepared: true`, nothing booked.
 */
export async function harvestWallet(parameters: HarvestParameters): Promise<HarvestResult> {
  const wallet = ledgerWallet(parameters.adapters, parameters.address);
  const positions = (await readTrackedPositions(parameters.sql ?? parameters.db, [wallet])).filter(
    (position) => !parameters.chain || position.chain === parameters.chain,
  );
  positions.sort((a, b) =>
    `${a.chain}/${a.opportunityId}` < `${b.chain}/${b.opportunityId}` ? -1 : 1,
  );
  const { recordWrite } = parameters;
  if (!recordWrite || parameters.execute) {
    return summarizeHarvest(parameters, wallet, await harvestPositions(parameters, positions));
  }
  // With an Idempotency-Key: the bookings and the answer commit together (a position that
  // moved while it was read answers unavailable; the caller harvests again with a new key).
  const measured = await measureAll(parameters, positions);
  return runLedgerTransaction(parameters.db, async (tx) => {
    const stale = await bookMeasured(prismaSqlClient(tx), measured);
    const result = summarizeHarvest(
      parameters,
      wallet,
      measured.map((entry) => (stale.has(entry.position) ? raced(entry.position) : entry.result)),
    );
    await recordWrite(tx, result);
    return result;
  });
}
