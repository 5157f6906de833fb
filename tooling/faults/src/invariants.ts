import type { Books } from '@yieldrouter/ledger';
import { verifyLedger } from '@yieldrouter/ledger';
import type { OperationResult } from './routeOperations';
import type { TestReceiver } from '@yieldrouter/webhooks/testing';

/** The books: every entry balances, no wallet account below zero, every ledger rule holds. */
export async function checkBooks(db: Books): Promise<string[]> {
  const problems: string[] = [];
  const [unbalanced] = await db.$queryRawUnsafe<Array<{ count: number }>>(
    `SELECT count(*)::int AS count FROM (
       SELECT entry_id FROM postings GROUP BY entry_id HAVING sum(amount_micros) <> 0) u`,
  );
  if ((unbalanced?.count ?? 0) > 0) problems.push(`${unbalanced?.count} entries do not balance`);
  const [negative] = await db.$queryRawUnsafe<Array<{ count: number }>>(
    'SELECT count(*)::int AS count FROM ledger_accounts WHERE wallet IS NOT NULL AND balance_micros < 0',
  );
  if ((negative?.count ?? 0) > 0) problems.push(`${negative?.count} wallet accounts below zero`);
  const verified = await verifyLedger(db);
  if (!verified.ok) problems.push(`ledger:verify: ${JSON.stringify(verified).slice(0, 300)}`);
  return problems;
}

/** Operations the client saw accepted against what the ledger holds, operation by operation. */
export interface EffectCount {
  /** Operations answered 200 with a plan. */
  readonly accepted: number;
  /** Operations with at least one plan and one `route.prepared` entry. */
  readonly effects: number;
  /** Accepted, and nothing in the ledger. */
  readonly lost: number;
  /** Operations with more than one plan or more than one `route.prepared` entry. */
  readonly doubled: number;
  /** In the ledger, yet the client was never told yes. */
  readonly phantom: number;
}

export async function countEffects(
  db: Books,
  results: readonly OperationResult[],
): Promise<EffectCount> {
  const rows = await db.$queryRawUnsafe<
    Array<{ wallet: string; amount: string; plans: number; entries: number }>
  >(
    `SELECT p.wallet, p.amount_micros::text AS amount, count(DISTINCT p.id)::int AS plans,
            count(e.id)::int AS entries
       FROM plans p
       LEFT JOIN journal_entries e ON e.plan_id = p.id AND e.kind = 'route.prepared'
      WHERE p.kind = 'route'
      GROUP BY p.wallet, p.amount_micros`,
  );
  const byOperation = new Map(rows.map((row) => [`${row.wallet}:${row.amount}`, row]));
  let accepted = 0;
  let effects = 0;
  let lost = 0;
  let doubled = 0;
  let phantom = 0;
  for (const result of results) {
    const row = byOperation.get(`${result.operation.wallet}:${result.operation.amountMicros}`);
    const plans = row?.plans ?? 0;
    const entries = row?.entries ?? 0;
    if (result.accepted) accepted += 1;
    if (plans > 0 && entries > 0) effects += 1;
    if (result.accepted && (plans === 0 || entries === 0)) lost += 1;
    if (!result.accepted && plans > 0) phantom += 1;
    if (plans > 1 || entries > 1) doubled += 1;
  }
  return { accepted, effects, lost, doubled, phantom };
}

/** Every submitted leg of `planIds` settled, exactly once (one settlement entry). */
export async function checkSettledOnce(
  db: Books,
  planIds: readonly string[],
): Promise<{ readonly settled: number; readonly problems: string[] }> {
  if (planIds.length === 0) return { settled: 0, problems: [] };
  const rows = await db.$queryRawUnsafe<
    Array<{ plan_id: string; status: string; tx_id: string | null; settlements: number }>
  >(
    `SELECT l.plan_id, l.status, l.tx_id,
            (SELECT count(*)::int FROM journal_entries e
              WHERE e.plan_id = l.plan_id AND e.leg_index = l.leg_index
                AND e.kind = 'route.settled') AS settlements
       FROM plan_legs l WHERE l.plan_id = ANY($1::text[])`,
    planIds,
  );
  const problems: string[] = [];
  for (const row of rows) {
    if (row.status !== 'confirmed') problems.push(`leg of ${row.plan_id} is ${row.status}`);
    if (row.settlements !== 1) {
      problems.push(`leg of ${row.plan_id} has ${row.settlements} settlement entries`);
    }
  }
  if (rows.length !== planIds.length) problems.push(`${planIds.length - rows.length} legs missing`);
  return { settled: rows.filter((row) => row.settlements === 1).length, problems };
}

/**
 * True when every event is relayed and every delivery of the subscription has reached its
 * final state; `expected` is how many deliveries the subscription must have by then.
 */
export async function deliveriesSettled(
  db: Books,
  subscriptionId: string,
  expected: number,
): Promise<boolean> {
  const [row] = await db.$queryRawUnsafe<
    Array<{ open: number; events: number; unrelayed: number }>
  >(
    `SELECT count(*) FILTER (WHERE status <> 'delivered')::int AS open, count(*)::int AS events,
            (SELECT count(*)::int FROM outbox_events WHERE relayed_at IS NULL) AS unrelayed
       FROM webhook_deliveries WHERE subscription_id = $1`,
    subscriptionId,
  );
  return row?.open === 0 && row.unrelayed === 0 && row.events >= expected;
}

export interface DeliveryCheck {
  readonly events: number;
  /** Requests the receiver took beyond the attempts recorded (re-sent after a crash). */
  readonly extraSends: number;
  readonly problems: string[];
}

/**
 * The subscription's events as the receiver saw them: each delivered, with a valid signature,
 * in outbox order, and (`exactAttempts`) one request per recorded attempt. After a keeper is
 * killed mid-run, what it sent but had not recorded is sent again: counted as `extraSends`.
 */
export async function checkDeliveries(
  db: Books,
  subscriptionId: string,
  receiver: TestReceiver,
  { exactAttempts }: { readonly exactAttempts: boolean },
): Promise<DeliveryCheck> {
  const rows = await db.$queryRawUnsafe<
    Array<{ event_id: string; status: string; attempts: number }>
  >(
    `SELECT d.event_id, d.status, (SELECT count(*)::int FROM webhook_attempts a
                                    WHERE a.delivery_id = d.id) AS attempts
       FROM webhook_deliveries d JOIN outbox_events o ON o.id = d.event_id
      WHERE d.subscription_id = $1 ORDER BY o.seq`,
    subscriptionId,
  );
  const problems: string[] = [];
  const received = receiver.deliveries;
  const invalid = received.filter((entry) => !entry.verified);
  if (invalid.length > 0) problems.push(`${invalid.length} deliveries with a bad signature`);
  const firstOk = new Map<string, number>();
  received.forEach((entry, index) => {
    const ok = entry.answered !== null && entry.answered >= 200 && entry.answered < 300;
    if (ok && entry.eventId && !firstOk.has(entry.eventId)) firstOk.set(entry.eventId, index);
  });
  let extraSends = 0;
  let previous = -1;
  for (const row of rows) {
    const at = firstOk.get(row.event_id);
    if (row.status !== 'delivered' || at === undefined) {
      problems.push(`event ${row.event_id}: ${row.status}, never answered 200`);
      continue;
    }
    if (at < previous) problems.push(`event ${row.event_id} delivered out of order`);
    previous = at;
    // A refused connection is an attempt the receiver never saw: only sends beyond the
    // attempts count.
    const sends = received.filter((entry) => entry.eventId === row.event_id).length;
    extraSends += Math.max(0, sends - row.attempts);
  }
  if (exactAttempts && extraSends > 0) problems.push(`${extraSends} sends beyond the attempts`);
  const known = new Set(rows.map((row) => row.event_id));
  const strays = received.filter((entry) => !entry.eventId || !known.has(entry.eventId));
  if (strays.length > 0) problems.push(`${strays.length} deliveries of unknown events`);
  return { events: rows.length, extraSends, problems };
}
