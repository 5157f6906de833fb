import { randomBytes } from 'node:crypto';
import type { PrismaClientOrTransaction } from './apiKeys';
import { Prisma } from './generated/prisma/client';
import type { LegEffect, PlanKind } from './plans';

/** A leg with what settlement needs from its plan and venue. */
export interface SettlementLeg {
  readonly planId: string;
  readonly legIndex: number;
  readonly planKind: PlanKind;
  readonly planStatus: 'prepared' | 'blocked';
  readonly chain: string;
  readonly wallet: string | null;
  readonly owner: string | null;
  readonly action: string;
  readonly effect: LegEffect;
  readonly venueId: string | null;
  readonly opportunityId: string | null;
  readonly standard: string | null;
  readonly amountMicros: bigint;
  readonly status: 'unsigned' | 'submitted' | 'confirmed' | 'failed';
  readonly txId: string | null;
  readonly settledAmountMicros: bigint | null;
  readonly failureReason: string | null;
  /** Last change of the leg; for a `submitted` leg, when its transaction was recorded. */
  readonly updatedAt: Date;
}

interface LegRow {
  plan_id: string;
  leg_index: number;
  plan_kind: PlanKind;
  plan_status: 'prepared' | 'blocked';
  chain: string;
  wallet: string | null;
  owner: string | null;
  action: string;
  effect: LegEffect;
  venue_id: string | null;
  opportunity_id: string | null;
  standard: string | null;
  amount_micros: bigint;
  status: SettlementLeg['status'];
  tx_id: string | null;
  settled_amount_micros: bigint | null;
  failure_reason: string | null;
  updated_at: Date;
}

/** A leg with its plan's wallet and kind and its venue's opportunity id and standard. */
const SELECT_LEGS = Prisma.sql`
  SELECT l.plan_id, l.leg_index, p.kind AS plan_kind, p.status AS plan_status, p.chain,
         p.wallet, p.owner, l.action, l.effect, l.venue_id, v.opportunity_id, v.standard,
         l.amount_micros, l.status, l.tx_id, l.settled_amount_micros, l.failure_reason,
         l.updated_at
  FROM plan_legs l JOIN plans p ON p.id = l.plan_id LEFT JOIN venues v ON v.id = l.venue_id`;

const toLeg = (row: LegRow): SettlementLeg => ({
  planId: row.plan_id,
  legIndex: row.leg_index,
  planKind: row.plan_kind,
  planStatus: row.plan_status,
  chain: row.chain,
  wallet: row.wallet,
  owner: row.owner,
  action: row.action,
  effect: row.effect,
  venueId: row.venue_id,
  opportunityId: row.opportunity_id,
  standard: row.standard,
  amountMicros: row.amount_micros,
  status: row.status,
  txId: row.tx_id,
  settledAmountMicros: row.settled_amount_micros,
  failureReason: row.failure_reason,
  updatedAt: row.updated_at,
});

/**
 * One leg of a plan, with its plan's wallet and its venue. With `forUpdate` (inside a
 * transaction) the leg row is locked, so two settlements of one leg run one after the other.
 */
export async function findSettlementLeg(
  db: PrismaClientOrTransaction,
  planId: string,
  legIndex: number,
  { forUpdate = false }: { forUpdate?: boolean } = {},
): Promise<SettlementLeg | undefined> {
  const rows = await db.$queryRaw<LegRow[]>`
    ${SELECT_LEGS}
    WHERE l.plan_id = ${planId} AND l.leg_index = ${legIndex}
    ${forUpdate ? Prisma.sql`FOR UPDATE OF l` : Prisma.empty}`;
  return rows[0] ? toLeg(rows[0]) : undefined;
}

/** The plan and leg that already claimed `txId` (a transaction settles one leg only). */
export async function findLegByTx(
  db: PrismaClientOrTransaction,
  txId: string,
): Promise<{ planId: string; legIndex: number } | undefined> {
  const row = await db.planLeg.findFirst({
    where: { txId },
    select: { planId: true, legIndex: true },
  });
  return row ?? undefined;
}

/** Records the transaction that carries a leg (before its receipt is final). */
export async function markLegSubmitted(
  tx: PrismaClientOrTransaction,
  leg: { planId: string; legIndex: number; txId: string; now: Date },
): Promise<void> {
  await tx.$executeRaw`
    UPDATE plan_legs SET status = 'submitted', tx_id = ${leg.txId}, updated_at = ${leg.now}
    WHERE plan_id = ${leg.planId} AND leg_index = ${leg.legIndex} AND status = 'unsigned'`;
}

export async function markLegConfirmed(
  tx: PrismaClientOrTransaction,
  leg: { planId: string; legIndex: number; txId: string; settledAmountMicros: bigint; now: Date },
): Promise<void> {
  await tx.$executeRaw`
    UPDATE plan_legs
    SET status = 'confirmed', tx_id = ${leg.txId}, settled_amount_micros = ${leg.settledAmountMicros},
        failure_reason = NULL, settled_at = ${leg.now}, updated_at = ${leg.now}
    WHERE plan_id = ${leg.planId} AND leg_index = ${leg.legIndex}`;
}

export async function markLegFailed(
  tx: PrismaClientOrTransaction,
  leg: { planId: string; legIndex: number; txId: string | null; reason: string; now: Date },
): Promise<void> {
  await tx.$executeRaw`
    UPDATE plan_legs
    SET status = 'failed', tx_id = COALESCE(${leg.txId}, tx_id), failure_reason = ${leg.reason},
        settled_at = ${leg.now}, updated_at = ${leg.now}
    WHERE plan_id = ${leg.planId} AND leg_index = ${leg.legIndex}`;
}

/** Where the previous page of open legs ended (keyset: updated_at, plan_id, leg_index). */
export interface OpenLegsCursor {
  readonly updatedAt: Date;
  readonly planId: string;
  readonly legIndex: number;
}

export interface ListOpenLegsOptions {
  readonly limit?: number;
  /** Only legs in this state (`submitted`: a transaction is recorded and not final yet). */
  readonly status?: 'unsigned' | 'submitted';
  /** The last leg of the previous page; the next page starts after it. */
  readonly after?: OpenLegsCursor;
}

/**
 * Legs whose transaction has not settled yet, oldest first (the keeper's settlement watch), one
 * page at a time: pass the last leg of a page as `after` for the next.
 */
export async function listOpenLegs(
  db: PrismaClientOrTransaction,
  { limit = 100, status, after }: ListOpenLegsOptions = {},
): Promise<SettlementLeg[]> {
  const rows = await db.$queryRaw<LegRow[]>`
    ${SELECT_LEGS}
    WHERE l.status IN ('unsigned', 'submitted') AND l.effect <> 'none'
    ${status ? Prisma.sql`AND l.status = ${status}` : Prisma.empty}
    ${
      after
        ? Prisma.sql`AND (l.updated_at, l.plan_id, l.leg_index) > (${after.updatedAt}, ${after.planId}, ${after.legIndex})`
        : Prisma.empty
    }
    ORDER BY l.updated_at, l.plan_id, l.leg_index
    LIMIT ${limit}`;
  return rows.map(toLeg);
}

export type OutboxEventType =
  | 'deposit.settled'
  | 'withdraw.settled'
  | 'harvest.completed'
  | 'bridge.delivered'
  | 'bridge.failed'
  | 'position.updated'
  | 'apy.updated';

export interface OutboxEventInput {
  readonly type: OutboxEventType;
  readonly wallet: string | null;
  /** JSON-safe (amounts as strings). */
  readonly payload: Prisma.InputJsonObject;
}

/**
 * Writes events to the outbox. Call it inside the transaction that made the change the events
 * report, so an event exists exactly when its change committed. Returns the new event ids.
 */
export async function insertOutboxEvents(
  tx: PrismaClientOrTransaction,
  events: readonly OutboxEventInput[],
  now: Date,
): Promise<string[]> {
  if (events.length === 0) return [];
  const rows = events.map((event) => ({
    id: `evt_${randomBytes(16).toString('hex')}`,
    type: event.type,
    wallet: event.wallet,
    payload: event.payload,
  }));
  await tx.$executeRaw`
    INSERT INTO outbox_events (id, type, wallet, payload, created_at)
    SELECT t.e ->> 'id', t.e ->> 'type', t.e ->> 'wallet', t.e -> 'payload', ${now}
    FROM jsonb_array_elements(${JSON.stringify(rows)}::jsonb) WITH ORDINALITY AS t(e, n)
    ORDER BY t.n`;
  return rows.map((row) => row.id);
}
