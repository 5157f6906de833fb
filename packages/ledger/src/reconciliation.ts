import type { Books } from './books';
import { randomBytes } from 'node:crypto';
import type { OutboxEventInput } from './legs';
import { outboxPayload } from './legs';
import { sqlStatement } from './sqlClient';

export type ReconciliationTrigger = 'schedule' | 'manual' | 'cli';

export type DriftKind =
  | 'untracked'
  | 'shares_missing'
  | 'value_below_books'
  | 'reservation_without_leg'
  | 'wallet_below_books'
  | 'shares_unknown'
  | 'in_flight_without_bridge'
  | 'auto_pay_without_payout'
  | 'staked_without_position'
  /** A withdraw plan's skim the treasury has not received (migration 0055). */
  | 'skim_receivable'
  /** A treasury holding less USDC than the skim legs the books say it received. */
  | 'treasury_below_books';

/** One difference between the books and the chain (or the open legs). */
export interface DriftInput {
  readonly wallet: string;
  readonly chain: string;
  readonly opportunityId: string | null;
  readonly venueId: string | null;
  readonly kind: DriftKind;
  readonly booksMicros: bigint;
  readonly chainMicros: bigint;
  readonly driftMicros: bigint;
  readonly aboveThreshold: boolean;
  readonly cause: string;
}

export const newReconciliationRunId = (): string => `recon_${randomBytes(16).toString('hex')}`;

/** Opens a run (its counts are written when it finishes). */
export async function startReconciliationRun(
  db: Books,
  run: {
    readonly id: string;
    readonly trigger: ReconciliationTrigger;
    readonly thresholdMicros: bigint;
    readonly startedAt: Date;
  },
): Promise<void> {
  await db.$executeRaw`
    INSERT INTO reconciliation_runs (id, trigger, threshold_micros, started_at)
    VALUES (${run.id}, ${run.trigger}, ${run.thresholdMicros}, ${run.startedAt})`;
}

const RECORD_DRIFTS = sqlStatement(
  'yr_record_drifts',
  `
  WITH drifts AS (
    INSERT INTO reconciliation_drifts (run_id, wallet, chain, opportunity_id, venue_id, kind,
                                       books_micros, chain_micros, drift_micros,
                                       above_threshold, cause, created_at)
    SELECT $1, d.wallet, d.chain, d.opportunity_id, d.venue_id, d.kind, d.books_micros,
           d.chain_micros, d.drift_micros, d.above_threshold, d.cause, $4::timestamptz
    FROM jsonb_to_recordset($2::jsonb) AS d(wallet text, chain text, opportunity_id text,
                                           venue_id text, kind text, books_micros bigint,
                                           chain_micros bigint, drift_micros bigint,
                                           above_threshold boolean, cause text)
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM drifts)::int AS drifts,
         (SELECT count(*) FROM (SELECT ledger_insert_outbox($3::jsonb, $4::timestamptz)) e)::int
           AS events`,
);

/**
 * Records a page of drifts and the events of those above the threshold, in one statement (the
 * events exist exactly when their drifts do).
 */
export async function recordDrifts(
  db: Pick<Books, 'sql'>,
  runId: string,
  drifts: readonly DriftInput[],
  events: readonly OutboxEventInput[],
  now: Date,
): Promise<void> {
  if (drifts.length === 0) return;
  const rows = drifts.map((drift) => ({
    wallet: drift.wallet,
    chain: drift.chain,
    opportunity_id: drift.opportunityId,
    venue_id: drift.venueId,
    kind: drift.kind,
    books_micros: drift.booksMicros.toString(),
    chain_micros: drift.chainMicros.toString(),
    drift_micros: drift.driftMicros.toString(),
    above_threshold: drift.aboveThreshold,
    cause: drift.cause,
  }));
  await db.sql.query(RECORD_DRIFTS, [
    runId,
    JSON.stringify(rows),
    JSON.stringify(outboxPayload(events)),
    now.toISOString(),
  ]);
}

export interface ReconciliationCounts {
  readonly positions: number;
  readonly unavailable: number;
  readonly drifts: number;
  readonly aboveThreshold: number;
  readonly driftMicros: bigint;
}

export async function finishReconciliationRun(
  db: Books,
  id: string,
  counts: ReconciliationCounts,
  finishedAt: Date,
): Promise<void> {
  await db.$executeRaw`
    UPDATE reconciliation_runs
    SET finished_at = ${finishedAt}, positions = ${counts.positions},
        unavailable = ${counts.unavailable}, drifts = ${counts.drifts},
        above_threshold = ${counts.aboveThreshold}, drift_micros = ${counts.driftMicros}
    WHERE id = ${id}`;
}

/** A pending balance and the open legs that should account for it, where they differ. */
export interface ReservationDifference {
  readonly wallet: string;
  readonly chain: string;
  readonly bucket: 'pending_in' | 'pending_out';
  readonly booksMicros: bigint;
  readonly openMicros: bigint;
}

/** Every wallet whose pending balances differ from its open legs' reservations. */
export async function readReservationDifferences(
  db: Books,
  limit = 1000,
): Promise<ReservationDifference[]> {
  const rows = await db.$queryRaw<
    { wallet: string; chain: string; bucket: string; books: bigint; open: bigint }[]
  >`
    SELECT wallet, chain, bucket, books_micros::bigint AS books, open_micros::bigint AS open
    FROM ledger_reservations WHERE books_micros <> open_micros
    ORDER BY wallet, chain, bucket LIMIT ${limit}`;
  return rows.map((row) => ({
    wallet: row.wallet,
    chain: row.chain,
    bucket: row.bucket as ReservationDifference['bucket'],
    booksMicros: row.books,
    openMicros: row.open,
  }));
}

/** The last finished run, for metrics and the CLI. */
export async function latestReconciliationRun(db: Books) {
  return db.reconciliationRun.findFirst({
    where: { finishedAt: { not: null } },
    orderBy: { startedAt: 'desc' },
  });
}
