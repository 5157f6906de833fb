import type { Books } from './books';
import { timeOrderedHex } from './timeOrderedId';
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
  readonly status: LegStatus;
  readonly txId: string | null;
  readonly settledAmountMicros: bigint | null;
  readonly failureReason: string | null;
  /** The amounts a receipt may prove without review (the quoted amount when not set). */
  readonly minSettleMicros: bigint;
  readonly maxSettleMicros: bigint;
  /** The reservation went back (the leg expired or was cancelled); a late landing settles. */
  readonly released: boolean;
  /** The venue position the leg moves (venue legs), as the books hold it now. */
  readonly position: PositionState | null;
  /** The wallet's liquid balance on the leg's chain (read for exit, bridged_stake and pay_out legs). */
  readonly liquidMicros: bigint;
  /** The wallet's staked balance in the leg's venue (read for unstake legs; 0 otherwise). */
  readonly stakedMicros: bigint;
  /**
   * Rebalance legs: whether the plan's other leg (the withdraw leg for the deposit leg, and the
   * other way round) is still open (unsigned or submitted); unwrap legs: whether the plan's swap
   * leg is; swap legs: whether the plan's wrap leg is (a swap from the native token); false for
   * the other kinds.
   */
  readonly pairedLegOpen: boolean;
  /** Rebalance deposit legs: what the plan holds in the wallet's pending_in now; 0 otherwise. */
  readonly heldMicros: bigint;
  /**
   * Transfer legs to payees (`pay_out`): what the leg's own plan holds in the wallet's `auto_pay`
   * bucket on the leg's chain (its withdraw leg brought in, less what its payouts took).
   */
  readonly autoPayMicros: bigint;
  /** Swap legs: the plan's swap parts (tokens, addresses, quote); null for the other kinds. */
  readonly swap: Prisma.JsonValue;
  /**
   * A venue withdrawal's skim (the plan's `request.skim`, issue #46): what its plan asked the
   * owner to pay the treasury and where; null for plans without one.
   */
  readonly skim: PlanSkim | null;
  /** Last change of the leg; for a `submitted` leg, when its transaction was recorded. */
  readonly updatedAt: Date;
}

/** The skim a withdraw plan carries to the chain's treasury (stored in its request). */
export interface PlanSkim {
  readonly recipient: string;
  readonly amountMicros: bigint;
}

/** The stored `request.skim`, or null when the plan has none (or it is malformed). */
function skimOf(value: Prisma.JsonValue | null): PlanSkim | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { recipient, amountMicros } = value as Record<string, unknown>;
  if (typeof recipient !== 'string' || typeof amountMicros !== 'string') return null;
  if (!/^(0|[1-9][0-9]*)$/.test(amountMicros)) return null;
  return { recipient, amountMicros: BigInt(amountMicros) };
}

/**
 * A leg's life: `unsigned` → `submitted` (a transaction is recorded) → `confirmed` or `failed`
 * (final, by a receipt proving the leg's own transaction). `expired` and `cancelled` released
 * the reservation and stay confirmable by a receipt that proves the leg (a late landing).
 */
export type LegStatus = 'unsigned' | 'submitted' | 'confirmed' | 'failed' | 'expired' | 'cancelled';

/** The statuses a leg may still be settled from. */
export const OPEN_LEG_STATUSES = ['unsigned', 'submitted'] as const;
export const RELEASED_LEG_STATUSES = ['expired', 'cancelled'] as const;

/**
 * What the books hold for one venue position (migration 0011): the shares our settled legs
 * minted less those they burned, the mark (staked balance + fees retained) and a version every
 * change bumps (writers send the version they read; a moved position is `stale`).
 */
export interface PositionState {
  readonly shares: bigint;
  /** False for a position that predates share tracking. */
  readonly sharesKnown: boolean;
  readonly markMicros: bigint;
  readonly feesRetainedMicros: bigint;
  readonly version: bigint;
}

/** The state of a position nothing has moved yet. */
const EMPTY_POSITION: PositionState = {
  shares: 0n,
  sharesKnown: true,
  markMicros: 0n,
  feesRetainedMicros: 0n,
  version: 0n,
};

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
  min_settle_micros: string | null;
  max_settle_micros: string | null;
  released: boolean;
  position_shares: string | null;
  shares_known: boolean | null;
  mark_micros: string | null;
  fees_retained_micros: string | null;
  position_version: string | null;
  liquid_micros: string | null;
  staked_micros: string | null;
  paired_leg_open: boolean | null;
  held_micros: string | null;
  auto_pay_micros: string | null;
  swap: Prisma.JsonValue;
  skim: Prisma.JsonValue | null;
  updated_at: Date;
}

/**
 * A leg with its plan's wallet and kind, its venue's opportunity id and standard, the position
 * it moves and the balances its settlement may need: the columns of `LegRow` over `LEG_TABLES`.
 */
export const LEG_COLUMNS = `
  l.plan_id, l.leg_index, p.kind AS plan_kind, p.status AS plan_status,
  COALESCE(l.chain, p.chain) AS chain, p.wallet,
  p.owner, l.action, l.effect, l.venue_id, v.opportunity_id, v.standard,
  l.amount_micros::text AS amount_micros, l.status, l.tx_id,
  l.settled_amount_micros::text AS settled_amount_micros, l.failure_reason,
  l.min_settle_micros::text AS min_settle_micros, l.max_settle_micros::text AS max_settle_micros,
  l.released_at IS NOT NULL AS released,
  pos.shares::text AS position_shares, pos.shares_known, pos.mark_micros::text AS mark_micros,
  pos.fees_retained_micros::text AS fees_retained_micros, pos.version::text AS position_version,
  CASE WHEN l.effect IN ('exit_liquid', 'bridged_stake', 'pay_out') THEN (
    SELECT a.balance_micros::text FROM ledger_accounts a
    WHERE a.wallet = p.wallet AND a.chain = COALESCE(l.chain, p.chain) AND a.bucket = 'liquid') END AS liquid_micros,
  CASE WHEN l.effect = 'pay_out' THEN (
    SELECT COALESCE(SUM(po.amount_micros), 0)::text FROM journal_entries e
    JOIN postings po ON po.entry_id = e.id
    JOIN ledger_accounts a ON a.id = po.account_id
    WHERE e.plan_id = l.plan_id AND a.wallet = p.wallet AND a.chain = COALESCE(l.chain, p.chain)
      AND a.bucket = 'auto_pay') END AS auto_pay_micros,
  CASE WHEN l.effect IN ('unstake', 'rebalance_out', 'unstake_yield') THEN (
    SELECT a.balance_micros::text FROM ledger_accounts a
    WHERE a.wallet = p.wallet AND a.chain = COALESCE(l.chain, p.chain)
      AND a.bucket = 'staked:' || v.opportunity_id) END AS staked_micros,
  CASE WHEN l.effect IN ('rebalance_out', 'rebalance_in', 'unwrap', 'swap') THEN EXISTS (
    SELECT 1 FROM plan_legs o
    WHERE o.plan_id = l.plan_id AND o.leg_index <> l.leg_index
      AND CASE WHEN l.effect = 'swap' THEN o.effect = 'wrap'
               ELSE o.effect IN ('rebalance_out', 'rebalance_in', 'swap') END
      AND o.status IN ('unsigned', 'submitted')) END AS paired_leg_open,
  CASE WHEN l.effect = 'rebalance_in' THEN (
    SELECT COALESCE(SUM(po.amount_micros), 0)::text FROM journal_entries e
    JOIN postings po ON po.entry_id = e.id
    JOIN ledger_accounts a ON a.id = po.account_id
    WHERE e.plan_id = l.plan_id AND a.wallet = p.wallet AND a.chain = COALESCE(l.chain, p.chain)
      AND a.bucket = 'pending_in') END AS held_micros,
  p.swap, CASE WHEN l.effect IN ('unstake', 'rebalance_out', 'unstake_yield', 'skim')
    THEN p.request->'skim' END AS skim,
  l.updated_at`;
export const LEG_TABLES = `plan_legs l JOIN plans p ON p.id = l.plan_id
  LEFT JOIN venues v ON v.id = l.venue_id
  LEFT JOIN positions pos ON pos.wallet = p.wallet AND pos.chain = COALESCE(l.chain, p.chain)
                         AND pos.opportunity_id = v.opportunity_id`;

const micros = (value: string | null): bigint => (value === null ? 0n : BigInt(value));

function positionOf(row: LegRow): PositionState | null {
  if (row.venue_id === null) return null;
  if (row.position_version === null) return EMPTY_POSITION;
  return {
    shares: micros(row.position_shares),
    sharesKnown: row.shares_known ?? true,
    markMicros: micros(row.mark_micros),
    feesRetainedMicros: micros(row.fees_retained_micros),
    version: BigInt(row.position_version),
  };
}

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
  minSettleMicros: BigInt(row.min_settle_micros ?? row.amount_micros),
  maxSettleMicros: BigInt(row.max_settle_micros ?? row.amount_micros),
  released: row.released,
  position: positionOf(row),
  liquidMicros: micros(row.liquid_micros),
  stakedMicros: micros(row.staked_micros),
  pairedLegOpen: row.paired_leg_open ?? false,
  heldMicros: micros(row.held_micros),
  autoPayMicros: micros(row.auto_pay_micros),
  swap: row.swap,
  skim: skimOf(row.skim),
  updatedAt: row.updated_at,
});

/** The leg that carries `txId`, if any (a transaction settles one leg only). */
const legClaiming = (txId: string) =>
  Prisma.sql`SELECT plan_id, leg_index FROM plan_legs WHERE tx_id = ${txId} LIMIT 1`;

/** One leg of a plan, with its plan's wallet and its venue. */
export async function findSettlementLeg(
  db: Books,
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
  db: Books,
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
  db: Books,
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

/**
 * Records the transaction a released (expired or cancelled) leg is now said to carry, so the
 * keeper watches it for a late landing. False when the leg is not released or already carries
 * a transaction.
 */
export async function markReleasedLegTx(
  db: Books,
  leg: { planId: string; legIndex: number; txId: string; now: Date },
): Promise<boolean> {
  const changed = await db.$executeRaw`
    UPDATE plan_legs SET tx_id = ${leg.txId}, updated_at = ${leg.now}
     WHERE plan_id = ${leg.planId} AND leg_index = ${leg.legIndex}
       AND status IN ('expired', 'cancelled') AND tx_id IS NULL`;
  return changed > 0;
}

/**
 * Drops a transaction a leg holds that the chain says is not the leg's (its receipt does not
 * match): a submitted leg goes back to unsigned, a released one keeps its status. False when
 * the leg no longer holds `txId` or is final.
 */
export async function dropLegTx(
  db: Books,
  leg: { planId: string; legIndex: number; txId: string; now: Date },
): Promise<boolean> {
  const changed = await db.$executeRaw`
    UPDATE plan_legs
       SET tx_id = NULL, updated_at = ${leg.now},
           status = CASE WHEN status = 'submitted' THEN 'unsigned' ELSE status END
     WHERE plan_id = ${leg.planId} AND leg_index = ${leg.legIndex} AND tx_id = ${leg.txId}
       AND status NOT IN ('confirmed', 'failed')`;
  return changed > 0;
}

/** Where the previous page of open legs ended (keyset: updated_at, plan_id, leg_index). */
export interface OpenLegsCursor {
  readonly updatedAt: Date;
  readonly planId: string;
  readonly legIndex: number;
}

export interface ListOpenLegsOptions {
  readonly limit?: number;
  /**
   * Only legs in this state: `submitted` (a transaction is recorded and not final yet),
   * `unsigned`, or `released` (expired or cancelled, carrying a transaction that may still land).
   */
  readonly status?: 'unsigned' | 'submitted' | 'released';
  /** Only legs last changed at or after this time (released legs are watched for a while). */
  readonly changedSince?: Date;
  /** Only legs of plans prepared before this time (unsigned legs past their TTL). */
  readonly preparedBefore?: Date;
  /** The last leg of the previous page; the next page starts after it. */
  readonly after?: OpenLegsCursor;
}

function statusFilter(status: ListOpenLegsOptions['status']) {
  switch (status) {
    case 'released':
      return Prisma.sql`l.status IN ('expired', 'cancelled') AND l.tx_id IS NOT NULL`;
    case undefined:
      return Prisma.sql`l.status IN ('unsigned', 'submitted')`;
    default:
      return Prisma.sql`l.status = ${status}`;
  }
}

/**
 * Legs whose transaction has not settled yet, oldest first (the keeper's settlement watch and
 * leg expiry), one page at a time: pass the last leg of a page as `after` for the next.
 */
export async function listOpenLegs(
  db: Books,
  { limit = 100, status, changedSince, preparedBefore, after }: ListOpenLegsOptions = {},
): Promise<SettlementLeg[]> {
  const rows = await db.$queryRaw<LegRow[]>`
    ${SELECT_LEGS}
    WHERE ${statusFilter(status)} AND l.effect <> 'none' AND p.status = 'prepared'
    ${changedSince ? Prisma.sql`AND l.updated_at >= ${changedSince}` : Prisma.empty}
    ${preparedBefore ? Prisma.sql`AND p.created_at < ${preparedBefore}` : Prisma.empty}
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
  | 'apy.updated'
  | 'reconciliation.drift'
  | 'auto_pay.paid'
  | 'plan.divergence'
  | 'plan.simulated';

export interface OutboxEventInput {
  readonly type: OutboxEventType;
  readonly wallet: string | null;
  /** JSON-safe (amounts as strings). */
  readonly payload: Prisma.InputJsonObject;
}

/** Events as `ledger_insert_outbox` takes them, each with a new stable id. */
export function outboxPayload(events: readonly OutboxEventInput[]) {
  return events.map((event) => ({
    id: `evt_${timeOrderedHex()}`,
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
  tx: Books,
  events: readonly OutboxEventInput[],
  now: Date,
): Promise<string[]> {
  if (events.length === 0) return [];
  const rows = outboxPayload(events);
  await tx.$executeRaw`SELECT ledger_insert_outbox(${JSON.stringify(rows)}::jsonb, ${now})`;
  return rows.map((row) => row.id);
}
