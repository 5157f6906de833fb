import type { Books } from './books';

export interface FanOutOutboxParameters {
  /** Outbox events taken per call, oldest first. */
  readonly limit: number;
  /** Stamped as the relay time and as the deliveries' first due time. */
  readonly now: Date;
}

export interface FanOutOutboxReturnType {
  /** Outbox events marked relayed by this call. */
  readonly events: number;
  /** The deliveries it created, in relay order. */
  readonly deliveryIds: string[];
}

// Any constant works; it only has to be the same for every relayer.
const RELAY_LOCK_KEY = 7_311_560_007;

/**
 * Relays the outbox, in ONE statement (so one transaction): takes up to `limit` unrelayed
 * events in `seq` order (FOR UPDATE SKIP LOCKED), creates one pending delivery per live
 * subscription whose event types include the event's type and whose wallets cover the event's
 * wallet (an event without a wallet, such as apy.updated, goes to every subscription of its
 * type), and marks the events relayed. Relayers are serialized by a transaction-level advisory
 * lock: a relayer that finds it held returns at once with nothing (the holder is doing the
 * work), so deliveries are always created in outbox order and each event is relayed once.
 * A delivery already present for (event, subscription) is left as it is.
 *
 * @example
 * const { events, deliveryIds } = await fanOutOutbox(prisma, { limit: 500, now: new Date() });
 */
export async function fanOutOutbox(
  db: Books,
  { limit, now }: FanOutOutboxParameters,
): Promise<FanOutOutboxReturnType> {
  const [row] = await db.$queryRaw<{ events: bigint; delivery_ids: string[] | null }[]>`
    WITH relay_lock AS (
      SELECT pg_try_advisory_xact_lock(${RELAY_LOCK_KEY}::bigint) AS held
    ), batch AS (
      SELECT o.id, o.seq, o.type, o.wallet
      FROM outbox_events o
      WHERE o.relayed_at IS NULL AND (SELECT held FROM relay_lock)
      ORDER BY o.seq
      LIMIT ${limit}
      FOR UPDATE OF o SKIP LOCKED
    ), created AS (
      INSERT INTO webhook_deliveries (id, event_id, subscription_id, next_attempt_at, created_at)
      SELECT 'dlv_' || ledger_time_ordered_hex(), b.id, s.id,
             ${now}::timestamptz, ${now}::timestamptz
      FROM batch b
      JOIN webhook_subscriptions s
        ON s.deleted_at IS NULL
       AND b.type = ANY(s.event_types)
       AND (b.wallet IS NULL OR '*' = ANY(s.wallets) OR b.wallet = ANY(s.wallets))
      ORDER BY b.seq, s.id
      -- A subscription being deleted is waited for (then skipped); one being relayed to makes
      -- its deletion wait, so the deletion then sees and ends these deliveries.
      FOR SHARE OF s
      ON CONFLICT (event_id, subscription_id) DO NOTHING
      RETURNING id, seq
    ), relayed AS (
      UPDATE outbox_events o SET relayed_at = ${now}::timestamptz
      FROM batch b
      WHERE o.id = b.id
      RETURNING o.id
    )
    SELECT (SELECT count(*) FROM relayed) AS events,
           (SELECT array_agg(id ORDER BY seq) FROM created) AS delivery_ids`;
  return { events: Number(row?.events ?? 0n), deliveryIds: row?.delivery_ids ?? [] };
}
