import type { Books } from './books';
import { randomBytes } from 'node:crypto';
import type { Prisma } from './generated/prisma/client';
import type { OutboxEventType } from './legs';

/** A delivery leased to one sender, with what sending it needs. */
export interface ClaimedDelivery {
  readonly id: string;
  readonly seq: bigint;
  readonly subscriptionId: string;
  /** Attempts made before this one. */
  readonly attempts: number;
  /** Proves the lease when the attempt is recorded or the delivery released. */
  readonly claimToken: string;
  readonly url: string;
  readonly keySealed: string;
  readonly previousKeySealed: string | null;
  readonly previousKeyExpiresAt: Date | null;
  readonly event: {
    readonly id: string;
    readonly type: OutboxEventType;
    readonly wallet: string | null;
    readonly payload: Prisma.JsonObject;
    readonly createdAt: Date;
  };
}

export interface ClaimDueDeliveriesParameters {
  readonly now: Date;
  /** How long the claim holds; after that the deliveries may be claimed again. */
  readonly leaseMs: number;
  /** Subscriptions served per call. */
  readonly limit: number;
  /** Consecutive deliveries claimed per subscription, in order (default 1). */
  readonly perSubscription?: number;
}

interface ClaimRow {
  id: string;
  seq: bigint;
  subscription_id: string;
  attempts: number;
  url: string;
  key_sealed: string;
  previous_key_sealed: string | null;
  previous_key_expires_at: Date | null;
  event_id: string;
  event_type: OutboxEventType;
  event_wallet: string | null;
  event_payload: Prisma.JsonObject;
  event_created_at: Date;
}

interface RunRow {
  id: string;
  subscription_id: string;
  next_attempt_at: Date;
  locked_until: Date | null;
}

/**
 * Claims what is due, subscription by subscription, keeping each subscription's order: a
 * subscription is served only when its oldest pending delivery (the head) is due and not
 * leased, and then the head and up to `perSubscription − 1` pending deliveries right behind it
 * are leased together, in order. A later delivery is never sent while an earlier one of the
 * same subscription is pending (waiting for a retry, or being sent). Concurrent claimers never
 * get the same delivery: each takes its subscriptions with `FOR NO KEY UPDATE SKIP LOCKED`
 * and re-reads their heads under that lock before leasing.
 * Returned grouped by subscription, each group in delivery order.
 *
 * @example
 * const claimed = await claimDueDeliveries(prisma, { now, leaseMs: 60_000, limit: 50 });
 */
export async function claimDueDeliveries(
  prisma: Books,
  { now, leaseMs, limit, perSubscription = 1 }: ClaimDueDeliveriesParameters,
): Promise<ClaimedDelivery[]> {
  return prisma.transaction(async (tx) => {
    const subscriptions = await tx.$queryRaw<{ id: string }[]>`
      SELECT s.id
      FROM webhook_subscriptions s
      CROSS JOIN LATERAL (
        SELECT d.next_attempt_at, d.locked_until
        FROM webhook_deliveries d
        WHERE d.subscription_id = s.id AND d.status = 'pending'
        ORDER BY d.seq
        LIMIT 1
      ) head
      WHERE s.deleted_at IS NULL AND head.next_attempt_at <= ${now}::timestamptz
        AND (head.locked_until IS NULL OR head.locked_until <= ${now}::timestamptz)
      ORDER BY head.next_attempt_at, s.id
      LIMIT ${limit}
      FOR NO KEY UPDATE OF s SKIP LOCKED`;
    return leaseRuns(
      tx,
      subscriptions.map((row) => row.id),
      { now, leaseMs, perSubscription },
    );
  });
}

/**
 * Claims one delivery, only when it is its subscription's head, due and not leased (else
 * null): for a sender that was handed a delivery id (a queued job). Same locking as
 * {@link claimDueDeliveries}.
 */
export async function claimDelivery(
  prisma: Books,
  deliveryId: string,
  { now, leaseMs }: { now: Date; leaseMs: number },
): Promise<ClaimedDelivery | null> {
  return prisma.transaction(async (tx) => {
    const subscriptions = await tx.$queryRaw<{ id: string }[]>`
      SELECT s.id
      FROM webhook_subscriptions s
      JOIN webhook_deliveries d ON d.subscription_id = s.id
      WHERE d.id = ${deliveryId} AND d.status = 'pending' AND s.deleted_at IS NULL
      FOR NO KEY UPDATE OF s SKIP LOCKED`;
    const [claimed] = await leaseRuns(
      tx,
      subscriptions.map((row) => row.id),
      { now, leaseMs, perSubscription: 1, only: deliveryId },
    );
    return claimed ?? null;
  });
}

/** Under the subscriptions' row locks: re-reads each head, leases the due runs behind it. */
async function leaseRuns(
  tx: Books,
  subscriptionIds: readonly string[],
  {
    now,
    leaseMs,
    perSubscription,
    only,
  }: {
    now: Date;
    leaseMs: number;
    perSubscription: number;
    /** Lease nothing unless this delivery is the head. */
    only?: string;
  },
): Promise<ClaimedDelivery[]> {
  if (subscriptionIds.length === 0) return [];
  // A new statement sees every commit made before the locks were taken.
  const runs = await tx.$queryRaw<RunRow[]>`
    SELECT r.id, r.subscription_id, r.next_attempt_at, r.locked_until
    FROM unnest(${[...subscriptionIds]}::text[]) AS sub(id)
    CROSS JOIN LATERAL (
      SELECT d.id, d.seq, d.subscription_id, d.next_attempt_at, d.locked_until
      FROM webhook_deliveries d
      WHERE d.subscription_id = sub.id AND d.status = 'pending'
      ORDER BY d.seq
      LIMIT ${perSubscription}
    ) r
    ORDER BY r.subscription_id, r.seq`;
  const chosen: string[] = [];
  let current: string | undefined;
  let open = false;
  for (const row of runs) {
    if (row.subscription_id !== current) {
      current = row.subscription_id;
      open = true; // the first row of a subscription is its head
    }
    const ready =
      row.next_attempt_at.getTime() <= now.getTime() &&
      (row.locked_until === null || row.locked_until.getTime() <= now.getTime());
    // A run is the head and what follows it without a gap: stop at the first row not ready.
    open = open && ready;
    if (open) chosen.push(row.id);
  }
  if (only !== undefined && chosen[0] !== only) return [];
  if (chosen.length === 0) return [];
  const claimToken = randomBytes(16).toString('hex');
  const lockedUntil = new Date(now.getTime() + leaseMs);
  const rows = await tx.$queryRaw<ClaimRow[]>`
    UPDATE webhook_deliveries d
    SET claim_token = ${claimToken}, locked_until = ${lockedUntil}::timestamptz
    FROM webhook_subscriptions s, outbox_events e
    WHERE d.id = ANY(${chosen}::text[]) AND s.id = d.subscription_id AND e.id = d.event_id
    RETURNING d.id, d.seq, d.subscription_id, d.attempts, s.url, s.key_sealed,
              s.previous_key_sealed, s.previous_key_expires_at, e.id AS event_id,
              e.type AS event_type, e.wallet AS event_wallet, e.payload AS event_payload,
              e.created_at AS event_created_at`;
  return rows
    .sort((a, b) =>
      a.subscription_id === b.subscription_id
        ? Number(a.seq - b.seq)
        : a.subscription_id < b.subscription_id
          ? -1
          : 1,
    )
    .map((row) => ({
      id: row.id,
      seq: row.seq,
      subscriptionId: row.subscription_id,
      attempts: row.attempts,
      claimToken,
      url: row.url,
      keySealed: row.key_sealed,
      previousKeySealed: row.previous_key_sealed,
      previousKeyExpiresAt: row.previous_key_expires_at,
      event: {
        id: row.event_id,
        type: row.event_type,
        wallet: row.event_wallet,
        payload: row.event_payload,
        createdAt: row.event_created_at,
      },
    }));
}

/** What became of a delivery after an attempt. */
export type DeliveryOutcome =
  | { readonly status: 'delivered' }
  | { readonly status: 'pending'; readonly nextAttemptAt: Date }
  | { readonly status: 'failed' };

export interface RecordDeliveryAttemptParameters {
  readonly deliveryId: string;
  readonly claimToken: string;
  readonly startedAt: Date;
  /** The receiver's status, or null when no answer came (or nothing was sent). */
  readonly httpStatus: number | null;
  readonly latencyMs: number;
  readonly error: string | null;
  readonly outcome: DeliveryOutcome;
}

/**
 * Records attempts and moves their deliveries on, in one statement (so atomically, and one
 * commit for a whole run): each attempt row, the attempt count, the status (`delivered`,
 * `pending` with its next time, or final `failed`) and the end of the lease. Only the lease
 * holder can record: each entry of the result is the attempt's number, or null when that claim
 * was lost (its lease passed and another sender took it, or the subscription was deleted).
 */
export async function recordDeliveryAttempts(
  db: Books,
  attempts: readonly RecordDeliveryAttemptParameters[],
): Promise<(number | null)[]> {
  if (attempts.length === 0) return [];
  const input = JSON.stringify(
    attempts.map((attempt) => ({
      delivery_id: attempt.deliveryId,
      claim_token: attempt.claimToken,
      status: attempt.outcome.status,
      next_attempt_at:
        attempt.outcome.status === 'pending' ? attempt.outcome.nextAttemptAt.toISOString() : null,
      delivered_at: attempt.outcome.status === 'delivered' ? attempt.startedAt.toISOString() : null,
      started_at: attempt.startedAt.toISOString(),
      http_status: attempt.httpStatus,
      latency_ms: Math.max(0, Math.round(attempt.latencyMs)),
      error: attempt.error,
    })),
  );
  const rows = await db.$queryRaw<{ delivery_id: string; attempt: number }[]>`
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(${input}::jsonb) AS i(
        delivery_id text, claim_token text, status text, next_attempt_at timestamptz,
        delivered_at timestamptz, started_at timestamptz, http_status int, latency_ms int,
        error text)
    ), updated AS (
      UPDATE webhook_deliveries d
      SET attempts = d.attempts + 1, status = i.status,
          next_attempt_at = COALESCE(i.next_attempt_at, d.next_attempt_at),
          delivered_at = i.delivered_at, last_status = i.http_status, last_error = i.error,
          claim_token = NULL, locked_until = NULL
      FROM input i
      WHERE d.id = i.delivery_id AND d.claim_token = i.claim_token AND d.status = 'pending'
      RETURNING d.id, d.attempts
    )
    INSERT INTO webhook_attempts (delivery_id, attempt, started_at, http_status, latency_ms, error)
    SELECT u.id, u.attempts, i.started_at, i.http_status, i.latency_ms, i.error
    FROM updated u JOIN input i ON i.delivery_id = u.id
    RETURNING delivery_id, attempt`;
  const recorded = new Map(rows.map((row) => [row.delivery_id, row.attempt]));
  return attempts.map((attempt) => recorded.get(attempt.deliveryId) ?? null);
}

/** Gives back leased deliveries that were not attempted (the rest of a run after a failure). */
export async function releaseDeliveries(
  db: Books,
  { deliveryIds, claimToken }: { deliveryIds: readonly string[]; claimToken: string },
): Promise<number> {
  if (deliveryIds.length === 0) return 0;
  return db.$executeRaw`
    UPDATE webhook_deliveries SET claim_token = NULL, locked_until = NULL
    WHERE id = ANY(${[...deliveryIds]}::text[]) AND claim_token = ${claimToken}
      AND status = 'pending'`;
}
