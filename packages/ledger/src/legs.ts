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

/** A settlement leg as `LEG_COLUMNS` returns it (amounts as text: both clients read them alike). */
export interface LegRow {
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
  amount_micros: string;
  status: SettlementLeg['status'];
  tx_id: string | null;
  settled_amount_micros: string | null;
  failure_reason: string | null;
  updated_at: Date;
}

/**
 * A leg with its plan's wallet and kind and its venue's opportunity id and standard: the
 * columns of `LegRow` over `LEG_TABLES`.
 */
export const LEG_COLUMNS = `
  l.plan_id, l.leg_index, p.kind AS plan_kind, p.status AS plan_status, p.chain, p.wallet,
  p.owner, l.action, l.effect, l.venue_id, v.opportunity_id, v.standard,
  l.amount_micros::text AS amount_micros, l.status, l.tx_id,
  l.settled_amount_micros::text AS settled_amount_micros, l.failure_reason, l.updated_at`;
export const LEG_TABLES =
  'plan_legs l JOIN plans p ON p.id = l.plan_id LEFT JOIN venues v ON v.id = l.venue_id';

const SELECT_LEGS = Prisma.sql`SELECT ${Prisma.raw(LEG_COLUMNS)} FROM ${Prisma.raw(LEG_TABLES)}`;

export const toLeg = (row: LegRow): SettlementLeg => ({
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
  amountMicros: BigInt(row.amount_micros),
  status: row.status,
  txId: row.tx_id,
  settledAmountMicros:
    row.settled_amount_micros === null ? null : BigInt(row.settled_amount_micros),
  failureReason: row.failure_reason,
  updatedAt: row.updated_at,
});

/** The leg that carries `txId`, if any (a transaction settles one leg only). */
const legClaiming = (txId: string) =>
  Prisma.sql`SELECT plan_id, leg_index FROM plan_legs WHERE tx_id = ${txId} LIMIT 1`;

/** One leg of a plan, with its plan's wallet and its venue. */
export async function findSettlementLeg(
  db: PrismaClientOrTransaction,
  planId: string,
  legIndex: number,
): Promise<SettlementLeg | undefined> {
  const rows = await db.$queryRaw<LegRow[]>`
    ${SELECT_LEGS}
    WHERE l.plan_id = ${planId} AND l.leg_index = ${legIndex}`;
  return rows[0] ? toLeg(rows[0]) : undefined;
}

/** The plan and leg that already claimed `txId` (a transaction settles one leg only). */
export async function findLegByTx(
  db: PrismaClientOrTransaction,
  txId: string,
): Promise<{ planId: string; legIndex: number } | undefined> {
  // Raw SQL: the model API costs milliseconds per call here, on the settlement path.
  const rows = await db.$queryRaw<{ plan_id: string; leg_index: number }[]>`${legClaiming(txId)}`;
  const row = rows[0];
  return row ? { planId: row.plan_id, legIndex: row.leg_index } : undefined;
}

/**
 * Records the transaction that carries a leg (before its receipt is final): unsigned →
 * submitted with its txId. With `broadcast` (the server sent it), the plan becomes `submitted`
 * too, in the same statement. Returns false, changing nothing, when the leg is no longer
 * unsigned.
 */
export async function markLegSubmitted(
  db: PrismaClientOrTransaction,
  leg: { planId: string; legIndex: number; txId: string; now: Date },
  { broadcast = false }: { broadcast?: boolean } = {},
): Promise<boolean> {
  const rows = await db.$queryRaw<{ changed: number }[]>`
    WITH leg AS (
      UPDATE plan_legs SET status = 'submitted', tx_id = ${leg.txId}, updated_at = ${leg.now}
       WHERE plan_id = ${leg.planId} AND leg_index = ${leg.legIndex} AND status = 'unsigned'
      RETURNING plan_id
    ), plan AS (
      UPDATE plans SET submitted = true
       WHERE ${broadcast} AND id IN (SELECT plan_id FROM leg)
    )
    SELECT COUNT(*)::int AS changed FROM leg`;
  return (rows[0]?.changed ?? 0) > 0;
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

/** Events as `ledger_insert_outbox` takes them, each with a new stable id. */
export function outboxPayload(events: readonly OutboxEventInput[]) {
  return events.map((event) => ({
    id: `evt_${randomBytes(16).toString('hex')}`,
    type: event.type,
    wallet: event.wallet,
    payload: event.payload,
  }));
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
  const rows = outboxPayload(events);
  await tx.$executeRaw`SELECT ledger_insert_outbox(${JSON.stringify(rows)}::jsonb, ${now})`;
  return rows.map((row) => row.id);
}
