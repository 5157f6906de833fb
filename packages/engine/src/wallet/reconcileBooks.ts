import {
  finishReconciliationRun,
  listTrackedPositions,
  newReconciliationRunId,
  readReservationDifferences,
  recordDrifts,
  startReconciliationRun,
} from '@yieldrouter/ledger';
import type {
  DriftInput,
  DriftKind,
  OutboxEventInput,
  PositionCursor,
  Books,
  ReconciliationTrigger,
  TrackedPosition,
} from '@yieldrouter/ledger';
import type {
  Chain,
  PositionReading,
  ReconciliationDriftData,
  VenueStandard,
} from '@yieldrouter/schemas';
import { DriftKind as DriftKindName, errorMessage, formatMicros } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { mapWithLimit } from '../mapWithLimit';
import type { VenueConfig } from '../venues/venueConfig';
import { venueOnChain } from '../venues/venueConfig';
import { bucketDrifts, reconcileWalletHoldings } from './reconcileWalletBuckets';
import { ownerOn } from './walletAddress';
import { reconcileSkim } from './reconcileSkim';
import type { Treasuries } from '../plan/withdrawSkim';

export interface ReconcileParameters {
  readonly db: Books;
  readonly adapters: ChainAdapters;
  readonly venues: VenueConfig;
  /** A drift at or above this many micros raises `reconciliation.drift`. */
  readonly thresholdMicros: bigint;
  readonly trigger: ReconciliationTrigger;
  /** Positions read per page (default 500). */
  readonly pageSize?: number;
  /** Chain reads at once (default 16). */
  readonly concurrency?: number;
  /** Each chain's treasury: its USDC is compared with the skim legs it received. */
  readonly treasuries?: Treasuries | undefined;
  readonly now: () => Date;
}

/** Per kind: how many drifts, and their size. */
export type DriftTotals = Readonly<Record<DriftKind, { count: number; micros: bigint }>>;

export interface ReconcileReport {
  readonly runId: string;
  readonly positions: number;
  /** Wallet holdings (wallet, chain, asset) compared with the chain's balances. */
  readonly holdings: number;
  /** Positions and holdings whose chain could not be read (nothing is concluded about them). */
  readonly unavailable: number;
  readonly drifts: DriftTotals;
  readonly aboveThreshold: number;
  readonly startedAt: Date;
  readonly finishedAt: Date;
}

/** Every drift kind, as the `reconciliation.drift` event names them. */
const DRIFT_KINDS: readonly DriftKind[] = DriftKindName.options;

async function positionReading(
  parameters: ReconcileParameters,
  position: TrackedPosition,
): Promise<PositionReading> {
  const chain = position.chain as Chain;
  try {
    return await parameters.adapters[chain].readPosition(
      venueOnChain(parameters.venues, {
        venueId: position.venueId,
        chain,
        standard: position.standard as VenueStandard,
      }),
      ownerOn(parameters.adapters, position.wallet, chain),
      position.shares,
    );
  } catch (error) {
    return { status: 'unavailable', reason: 'rpc_error', detail: errorMessage(error) };
  }
}

/**
 * What one position's books and chain say, as drifts:
 * - `untracked`: the owner holds more shares than our settled legs minted (an outside deposit,
 *   a leg not settled yet) — reported, never booked;
 * - `shares_missing`: the chain holds fewer shares than the books track;
 * - `value_below_books`: the tracked shares are worth less than their mark (a loss);
 * - `shares_unknown`: the position predates share tracking, so nothing can be matched: its
 *   whole mark is reported (never silently nothing).
 * Tracked shares worth more than their mark are yield not harvested yet, not a drift.
 */
export function positionDrifts(
  position: TrackedPosition,
  reading: Extract<PositionReading, { status: 'ok' }>,
  thresholdMicros: bigint,
): DriftInput[] {
  const drifts: DriftInput[] = [];
  const base = {
    wallet: position.wallet,
    chain: position.chain,
    opportunityId: position.opportunityId,
    venueId: position.venueId,
  };
  const add = (kind: DriftKind, books: bigint, chain: bigint, drift: bigint, cause: string) => {
    if (drift > 0n) {
      drifts.push({
        ...base,
        kind,
        booksMicros: books,
        chainMicros: chain,
        driftMicros: drift,
        aboveThreshold: drift >= thresholdMicros,
        cause,
      });
    }
  };
  if (!position.sharesKnown) {
    // Nothing the books hold can be matched against the chain: the whole mark is unverified.
    const unverified = position.markMicros > 0n ? position.markMicros : reading.ownerValueMicros;
    add(
      'shares_unknown',
      position.markMicros,
      reading.ownerValueMicros,
      unverified,
      `the position predates share tracking: the books mark ${formatMicros(position.markMicros)} on shares they never counted; the owner's shares are worth ${formatMicros(reading.ownerValueMicros)} on chain`,
    );
    return drifts;
  }
  if (reading.ownerShares > position.shares) {
    add(
      'untracked',
      reading.sharesValueMicros,
      reading.ownerValueMicros,
      reading.ownerValueMicros - reading.sharesValueMicros,
      `${reading.ownerShares - position.shares} shares on chain our settled legs did not mint (an outside deposit, or a leg not settled yet)`,
    );
  } else if (reading.ownerShares < position.shares) {
    add(
      'shares_missing',
      reading.sharesValueMicros,
      reading.ownerValueMicros,
      reading.sharesValueMicros - reading.ownerValueMicros,
      `the books track ${position.shares} shares; the chain holds ${reading.ownerShares}`,
    );
  }
  add(
    'value_below_books',
    position.markMicros,
    reading.sharesValueMicros,
    position.markMicros - reading.sharesValueMicros,
    'the tracked shares are worth less than their mark (a loss at the venue)',
  );
  return drifts;
}

function driftEvent(runId: string, drift: DriftInput): OutboxEventInput {
  const payload: ReconciliationDriftData = {
    runId,
    wallet: drift.wallet,
    chain: drift.chain as Chain,
    opportunityId: drift.opportunityId,
    venueId: drift.venueId,
    kind: drift.kind,
    booksMicros: formatMicros(drift.booksMicros),
    chainMicros: formatMicros(drift.chainMicros),
    driftMicros: formatMicros(drift.driftMicros),
    cause: drift.cause,
  };
  return { type: 'reconciliation.drift', wallet: drift.wallet, payload };
}

/**
 * Compares the books with the chain (`pnpm ledger:reconcile`, the keeper's `reconciliation`
 * job), every bucket and asset (docs/reconciliation.md): every tracked venue position is read on
 * chain, a page at a time (shares the owner holds, what the tracked shares are worth); every
 * asset the books say an owner's wallet holds (liquid, auto_pay, pending_out) against the
 * chain's balances; pending balances against open legs; in_flight, auto_pay and staked against
 * the bridges, runs and positions they follow. Each difference is recorded with its size and cause; one at or above the
 * threshold also writes `reconciliation.drift` (same statement). A chain that cannot be read is
 * counted, never concluded on. Memory stays one page, whatever the number of wallets.
 */
export async function reconcileBooks(parameters: ReconcileParameters): Promise<ReconcileReport> {
  const startedAt = parameters.now();
  const runId = newReconciliationRunId();
  const sql = parameters.db;
  const pageSize = parameters.pageSize ?? 500;
  await startReconciliationRun(parameters.db, {
    id: runId,
    trigger: parameters.trigger,
    thresholdMicros: parameters.thresholdMicros,
    startedAt,
  });
  const totals = Object.fromEntries(
    DRIFT_KINDS.map((kind) => [kind, { count: 0, micros: 0n }]),
  ) as Record<DriftKind, { count: number; micros: bigint }>;
  let positions = 0;
  let unavailable = 0;
  let aboveThreshold = 0;
  const keep = async (drifts: DriftInput[]) => {
    for (const drift of drifts) {
      totals[drift.kind].count += 1;
      totals[drift.kind].micros += drift.driftMicros;
      if (drift.aboveThreshold) aboveThreshold += 1;
    }
    const events = drifts.filter((drift) => drift.aboveThreshold).map((d) => driftEvent(runId, d));
    await recordDrifts(sql, runId, drifts, events, parameters.now());
  };

  let after: PositionCursor | undefined;
  for (;;) {
    const page = await listTrackedPositions(sql, { limit: pageSize, ...(after ? { after } : {}) });
    const readings = await mapWithLimit(page, parameters.concurrency ?? 16, (position) =>
      positionReading(parameters, position),
    );
    const drifts: DriftInput[] = [];
    page.forEach((position, index) => {
      const reading = readings[index] as PositionReading;
      positions += 1;
      if (reading.status !== 'ok') unavailable += 1;
      else drifts.push(...positionDrifts(position, reading, parameters.thresholdMicros));
    });
    await keep(drifts);
    const last = page.at(-1);
    if (!last || page.length < pageSize) break;
    after = { wallet: last.wallet, chain: last.chain, opportunityId: last.opportunityId };
  }

  const reservations = await readReservationDifferences(parameters.db, 10_000);
  await keep(
    reservations.map((row) => {
      const drift =
        row.booksMicros > row.openMicros
          ? row.booksMicros - row.openMicros
          : row.openMicros - row.booksMicros;
      return {
        wallet: row.wallet,
        chain: row.chain,
        opportunityId: null,
        venueId: null,
        kind: 'reservation_without_leg' as const,
        booksMicros: row.booksMicros,
        chainMicros: row.openMicros,
        driftMicros: drift,
        aboveThreshold: drift >= parameters.thresholdMicros,
        cause: `${row.bucket} holds ${row.booksMicros}; open legs reserve ${row.openMicros}`,
      };
    }),
  );

  const wallets = await reconcileWalletHoldings(
    {
      db: parameters.db,
      adapters: parameters.adapters,
      thresholdMicros: parameters.thresholdMicros,
      pageSize,
      concurrency: parameters.concurrency ?? 16,
    },
    keep,
  );
  unavailable += wallets.unavailable;
  await keep(await bucketDrifts(parameters.db, parameters.thresholdMicros));
  const skim = await reconcileSkim(parameters);
  unavailable += skim.unavailable;
  await keep(skim.drifts);

  const finishedAt = parameters.now();
  const driftCount = DRIFT_KINDS.reduce((sum, kind) => sum + totals[kind].count, 0);
  await finishReconciliationRun(
    parameters.db,
    runId,
    {
      positions,
      unavailable,
      drifts: driftCount,
      aboveThreshold,
      driftMicros: DRIFT_KINDS.reduce((sum, kind) => sum + totals[kind].micros, 0n),
    },
    finishedAt,
  );
  return {
    runId,
    positions,
    holdings: wallets.holdings,
    unavailable,
    drifts: totals,
    aboveThreshold,
    startedAt,
    finishedAt,
  };
}
