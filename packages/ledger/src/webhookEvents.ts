import type { Books } from './books';
import type { Prisma } from './generated/prisma/client';
import type { OutboxEventType } from './legs';

/** Whose events page: a key's wallets, and whose deliveries it may see. */
export interface WebhookEventsViewer {
  /** Canonical ledger wallets; `*` = every wallet. */
  readonly wallets: readonly string[];
  /**
   * An owner key id: deliveries of that owner's subscriptions are shown. Null (an agent key):
   * deliveries of every subscription are shown, for events of a wallet only.
   */
  readonly ownerKeyId: string | null;
}

export interface ReadWebhookEventsPageParameters {
  /** Events older than this outbox seq (the cursor); none → newest first. */
  readonly beforeSeq?: bigint;
  readonly limit: number;
  readonly type?: OutboxEventType;
  /** Only this canonical wallet's events (still within the viewer's wallets). */
  readonly wallet?: string;
}

export interface WebhookAttemptRow {
  readonly attempt: number;
  readonly startedAt: Date;
  readonly httpStatus: number | null;
  readonly latencyMs: number;
  readonly error: string | null;
}

export interface WebhookDeliveryRow {
  readonly id: string;
  readonly subscriptionId: string;
  readonly status: 'pending' | 'delivered' | 'failed';
  readonly attempts: number;
  readonly nextAttemptAt: Date;
  readonly deliveredAt: Date | null;
  readonly lastError: string | null;
  readonly attemptLog: WebhookAttemptRow[];
}

export interface WebhookEventRow {
  readonly seq: bigint;
  readonly id: string;
  readonly type: OutboxEventType;
  readonly wallet: string | null;
  readonly payload: Prisma.JsonObject;
  readonly createdAt: Date;
  readonly deliveries: WebhookDeliveryRow[];
}

interface EventRow {
  seq: bigint;
  id: string;
  type: OutboxEventType;
  wallet: string | null;
  payload: Prisma.JsonObject;
  created_at: Date;
}

interface DeliveryRow {
  id: string;
  event_id: string;
  subscription_id: string;
  status: WebhookDeliveryRow['status'];
  attempts: number;
  next_attempt_at: Date;
  delivered_at: Date | null;
  last_error: string | null;
  attempt_log: {
    attempt: number;
    startedAt: string;
    httpStatus: number | null;
    latencyMs: number;
    error: string | null;
  }[];
}

/**
 * A page of events the viewer may see, newest first: events of its wallets and events without
 * a wallet (market-wide, such as apy.updated), each with its deliveries (in relay order) and
 * every attempt of each. Two queries whatever the page size. `next` is the seq to continue
 * before, or null on the last page.
 */
export async function readWebhookEventsPage(
  db: Books,
  viewer: WebhookEventsViewer,
  { beforeSeq, limit, type, wallet }: ReadWebhookEventsPageParameters,
): Promise<{ events: WebhookEventRow[]; next: bigint | null }> {
  const wallets = [...viewer.wallets];
  const rows = await db.$queryRaw<EventRow[]>`
    SELECT seq, id, type, wallet, payload, created_at
    FROM outbox_events
    WHERE (wallet IS NULL OR '*' = ANY(${wallets}::text[]) OR wallet = ANY(${wallets}::text[]))
      AND (${beforeSeq ?? null}::bigint IS NULL OR seq < ${beforeSeq ?? null}::bigint)
      AND (${type ?? null}::text IS NULL OR type = ${type ?? null}::text)
      AND (${wallet ?? null}::text IS NULL OR wallet = ${wallet ?? null}::text)
    ORDER BY seq DESC
    LIMIT ${limit + 1}`;
  const page = rows.slice(0, limit);
  const next = rows.length > limit ? (page[page.length - 1]?.seq ?? null) : null;
  if (page.length === 0) return { events: [], next };
  const deliveries = await db.$queryRaw<DeliveryRow[]>`
    SELECT d.id, d.event_id, d.subscription_id, d.status, d.attempts, d.next_attempt_at,
           d.delivered_at, d.last_error,
           COALESCE((
             SELECT json_agg(json_build_object(
                      'attempt', a.attempt, 'startedAt', a.started_at,
                      'httpStatus', a.http_status, 'latencyMs', a.latency_ms, 'error', a.error)
                    ORDER BY a.attempt)
             FROM webhook_attempts a WHERE a.delivery_id = d.id
           ), '[]'::json) AS attempt_log
    FROM webhook_deliveries d
    JOIN webhook_subscriptions s ON s.id = d.subscription_id
    JOIN outbox_events e ON e.id = d.event_id
    WHERE d.event_id = ANY(${page.map((event) => event.id)}::text[])
      AND (CASE WHEN ${viewer.ownerKeyId}::text IS NULL THEN e.wallet IS NOT NULL
                ELSE s.owner_key_id = ${viewer.ownerKeyId}::text END)
    ORDER BY d.seq`;
  const byEvent = new Map<string, WebhookDeliveryRow[]>();
  for (const row of deliveries) {
    const list = byEvent.get(row.event_id) ?? [];
    list.push({
      id: row.id,
      subscriptionId: row.subscription_id,
      status: row.status,
      attempts: row.attempts,
      nextAttemptAt: row.next_attempt_at,
      deliveredAt: row.delivered_at,
      lastError: row.last_error,
      attemptLog: row.attempt_log.map((attempt) => ({
        ...attempt,
        startedAt: new Date(attempt.startedAt),
      })),
    });
    byEvent.set(row.event_id, list);
  }
  return {
    events: page.map((event) => ({
      seq: event.seq,
      id: event.id,
      type: event.type,
      wallet: event.wallet,
      payload: event.payload,
      createdAt: event.created_at,
      deliveries: byEvent.get(event.id) ?? [],
    })),
    next,
  };
}
