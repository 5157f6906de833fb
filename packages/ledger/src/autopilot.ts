import type { Books } from './books';
import { sqlStatement } from './sqlClient';

/** A wallet's autopilot policy as stored (migration 0022). */
export interface AutopilotPolicyRow {
  readonly wallet: string;
  readonly chain: 'sui' | 'solana';
  readonly enabled: boolean;
  readonly rebalanceMinDeltaBps: number;
  readonly cadence: 'daily' | 'weekly' | 'monthly';
  readonly venueAllowlist: readonly string[];
  readonly goal: 'max_apy_30d';
  readonly nextTickAt: Date;
  readonly updatedAt: Date;
}

interface PolicySqlRow {
  wallet: string;
  chain: AutopilotPolicyRow['chain'];
  enabled: boolean;
  rebalance_min_delta_bps: number;
  cadence: AutopilotPolicyRow['cadence'];
  venue_allowlist: string[];
  goal: AutopilotPolicyRow['goal'];
  next_tick_at: Date;
  updated_at: Date;
}

const POLICY_COLUMNS = `wallet, chain, enabled, rebalance_min_delta_bps, cadence, venue_allowlist,
  goal, next_tick_at, updated_at`;

const toPolicy = (row: PolicySqlRow): AutopilotPolicyRow => ({
  wallet: row.wallet,
  chain: row.chain,
  enabled: row.enabled,
  rebalanceMinDeltaBps: Number(row.rebalance_min_delta_bps),
  cadence: row.cadence,
  venueAllowlist: row.venue_allowlist,
  goal: row.goal,
  nextTickAt: new Date(row.next_tick_at),
  updatedAt: new Date(row.updated_at),
});

/**
 * The wallet's policy, or null when the owner never enabled the autopilot. `lock` takes the
 * row lock (FOR UPDATE) so a tick's decision and its record are one at a time per wallet.
 */
export async function readAutopilotPolicy(
  db: Books,
  wallet: string,
  { lock = false }: { readonly lock?: boolean } = {},
): Promise<AutopilotPolicyRow | null> {
  const rows = await db.$queryRawUnsafe<PolicySqlRow[]>(
    `SELECT ${POLICY_COLUMNS} FROM autopilot_policies WHERE wallet = $1${lock ? ' FOR UPDATE' : ''}`,
    wallet,
  );
  const row = rows[0];
  return row ? toPolicy(row) : null;
}

export type AutopilotPolicyWrite = Omit<AutopilotPolicyRow, 'updatedAt'> & { readonly now: Date };

/** Stores the wallet's whole policy (insert or replace); returns it as stored. */
export async function writeAutopilotPolicy(
  db: Books,
  policy: AutopilotPolicyWrite,
): Promise<AutopilotPolicyRow> {
  const rows = await db.$queryRaw<PolicySqlRow[]>`
    INSERT INTO autopilot_policies (wallet, chain, enabled, rebalance_min_delta_bps, cadence,
                                    venue_allowlist, goal, next_tick_at, updated_at)
    VALUES (${policy.wallet}, ${policy.chain}, ${policy.enabled}, ${policy.rebalanceMinDeltaBps},
            ${policy.cadence}, ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(policy.venueAllowlist)}::jsonb)), ${policy.goal},
            ${policy.nextTickAt}, ${policy.now})
    ON CONFLICT (wallet) DO UPDATE SET
      chain = EXCLUDED.chain, enabled = EXCLUDED.enabled,
      rebalance_min_delta_bps = EXCLUDED.rebalance_min_delta_bps, cadence = EXCLUDED.cadence,
      venue_allowlist = EXCLUDED.venue_allowlist, goal = EXCLUDED.goal,
      next_tick_at = EXCLUDED.next_tick_at, updated_at = EXCLUDED.updated_at
    RETURNING wallet, chain, enabled, rebalance_min_delta_bps, cadence, venue_allowlist, goal,
              next_tick_at, updated_at`;
  const row = rows[0];
  if (!row) throw new Error(`autopilot policy of ${policy.wallet} was not stored`);
  return toPolicy(row);
}

/** One decision to keep. `record` is the decision document without its id and time. */
export interface AutopilotDecisionInput {
  readonly wallet: string;
  readonly kind: 'tick' | 'preview' | 'decide';
  /** The cadence period of a tick; null otherwise. */
  readonly period: string | null;
  readonly chain: 'sui' | 'solana';
  readonly outcome: 'hold' | 'switch' | 'blocked';
  readonly reason: string;
  readonly planId: string | null;
  readonly record: Readonly<Record<string, unknown>>;
  readonly decidedAt: Date;
}

/** A stored decision: its document, id and time. */
export interface AutopilotDecisionRow {
  readonly id: bigint;
  readonly wallet: string;
  readonly decidedAt: Date;
  readonly record: Readonly<Record<string, unknown>>;
}

interface DecisionSqlRow {
  id: string;
  wallet: string;
  decided_at: Date;
  record: Record<string, unknown> | string;
}

const toDecision = (row: DecisionSqlRow): AutopilotDecisionRow => ({
  id: BigInt(row.id),
  wallet: row.wallet,
  decidedAt: new Date(row.decided_at),
  record: typeof row.record === 'string' ? (JSON.parse(row.record) as never) : row.record,
});

const decisionPayload = (decision: AutopilotDecisionInput) => ({
  wallet: decision.wallet,
  kind: decision.kind,
  period: decision.period,
  chain: decision.chain,
  outcome: decision.outcome,
  reason: decision.reason,
  plan_id: decision.planId,
  record: decision.record,
  decided_at: decision.decidedAt.toISOString(),
});

const INSERT_DECISIONS = `
  INSERT INTO autopilot_decisions (wallet, kind, period, chain, outcome, reason, plan_id, record,
                                   decided_at)
  SELECT d.wallet, d.kind, d.period, d.chain, d.outcome, d.reason, d.plan_id, d.record, d.decided_at
  FROM jsonb_to_recordset($1::jsonb) AS d (wallet TEXT, kind TEXT, period TEXT, chain TEXT,
    outcome TEXT, reason TEXT, plan_id TEXT, record JSONB, decided_at TIMESTAMPTZ)`;

/**
 * Keeps one decision. A tick whose period already has one is not kept: null comes back (the
 * caller reads the first with {@link findTickDecision}).
 */
export async function insertAutopilotDecision(
  db: Books,
  decision: AutopilotDecisionInput,
): Promise<AutopilotDecisionRow | null> {
  const rows = await db.$queryRawUnsafe<DecisionSqlRow[]>(
    `${INSERT_DECISIONS}
     ON CONFLICT (wallet, period) WHERE kind = 'tick' DO NOTHING
     RETURNING id::text AS id, wallet, decided_at, record`,
    JSON.stringify([decisionPayload(decision)]),
  );
  const row = rows[0];
  return row ? toDecision(row) : null;
}

/** The tick of `period` already recorded for the wallet, if any. */
export async function findTickDecision(
  db: Books,
  wallet: string,
  period: string,
): Promise<AutopilotDecisionRow | null> {
  const rows = await db.$queryRaw<DecisionSqlRow[]>`
    SELECT id::text AS id, wallet, decided_at, record FROM autopilot_decisions
    WHERE wallet = ${wallet} AND kind = 'tick' AND period = ${period}`;
  const row = rows[0];
  return row ? toDecision(row) : null;
}

/** The wallet's decisions, newest first, `limit` of them older than `before` (an id). */
export async function readAutopilotDecisions(
  db: Books,
  wallet: string,
  { limit, before }: { readonly limit: number; readonly before?: bigint | undefined },
): Promise<AutopilotDecisionRow[]> {
  const rows = await db.$queryRaw<DecisionSqlRow[]>`
    SELECT id::text AS id, wallet, decided_at, record FROM autopilot_decisions
    WHERE wallet = ${wallet} AND (${before ?? null}::bigint IS NULL OR id < ${before ?? null}::bigint)
    ORDER BY id DESC LIMIT ${limit}`;
  return rows.map(toDecision);
}

/** After a tick: the policy's next tick is the start of the next period. */
export async function scheduleNextAutopilotTick(
  db: Books,
  wallet: string,
  nextTickAt: Date,
): Promise<void> {
  await db.$executeRaw`
    UPDATE autopilot_policies SET next_tick_at = ${nextTickAt} WHERE wallet = ${wallet}`;
}

const DUE_POLICIES = sqlStatement(
  'yr_autopilot_due',
  `
  SELECT ${POLICY_COLUMNS} FROM autopilot_policies
  WHERE enabled AND next_tick_at <= $1::timestamptz AND wallet COLLATE "C" > $2
  ORDER BY wallet COLLATE "C" LIMIT $3`,
  { readOnly: true },
);

/**
 * A page of enabled policies whose tick is due at `now`, in wallet byte order after `after`
 * (the keeper's keyset: a rerun or a resumed run picks up where it is still due).
 */
export async function listDueAutopilotPolicies(
  db: Pick<Books, 'sql'>,
  { now, after, limit }: { readonly now: Date; readonly after?: string; readonly limit: number },
): Promise<AutopilotPolicyRow[]> {
  const rows = await db.sql.query<PolicySqlRow>(DUE_POLICIES, [
    now.toISOString(),
    after ?? '',
    limit,
  ]);
  return rows.map(toPolicy);
}

/** One tick of a keeper page: its decision, and the next tick if the decision is kept. */
export interface AutopilotTickRecord {
  readonly decision: AutopilotDecisionInput & { readonly period: string };
  /** The policy as read for the decision: a policy changed since is not ticked on stale terms. */
  readonly policyUpdatedAt: Date;
  readonly nextTickAt: Date;
}

const RECORD_TICKS = sqlStatement(
  'yr_autopilot_record_ticks',
  `
  WITH input AS (
    SELECT d.*, (d.policy_updated_at)::timestamptz AS seen, (d.next_tick_at)::timestamptz AS next_at
    FROM jsonb_to_recordset($1::jsonb) AS d (wallet TEXT, kind TEXT, period TEXT, chain TEXT,
      outcome TEXT, reason TEXT, plan_id TEXT, record JSONB, decided_at TIMESTAMPTZ,
      policy_updated_at TEXT, next_tick_at TEXT)
  ), fresh AS (
    -- The policies' row locks first, in wallet order, as a tick takes its one: a tick holding a
    -- policy is waited for (its decision then wins the period), never deadlocked with.
    SELECT input.* FROM input
    JOIN autopilot_policies p ON p.wallet = input.wallet AND p.enabled AND p.updated_at = input.seen
    ORDER BY p.wallet COLLATE "C"
    FOR UPDATE OF p
  ), kept AS (
    INSERT INTO autopilot_decisions (wallet, kind, period, chain, outcome, reason, plan_id, record,
                                     decided_at)
    SELECT wallet, kind, period, chain, outcome, reason, plan_id, record, decided_at FROM fresh
    ON CONFLICT (wallet, period) WHERE kind = 'tick' DO NOTHING
    RETURNING wallet
  ), scheduled AS (
    UPDATE autopilot_policies p SET next_tick_at = fresh.next_at
    FROM fresh WHERE p.wallet = fresh.wallet AND p.next_tick_at < fresh.next_at
    RETURNING p.wallet
  )
  SELECT (SELECT count(*) FROM kept)::int AS kept, (SELECT count(*) FROM scheduled)::int AS scheduled`,
);

/**
 * Records a page of ticks in one statement: each decision whose policy is still enabled and
 * unchanged since it was read is kept unless its period already has one (a concurrent tick
 * won), and each such policy's next tick moves to the next period. Returns how many decisions
 * were kept.
 */
export async function recordAutopilotTicks(
  db: Pick<Books, 'sql'>,
  ticks: readonly AutopilotTickRecord[],
): Promise<number> {
  if (ticks.length === 0) return 0;
  const payload = ticks.map((tick) => ({
    ...decisionPayload(tick.decision),
    policy_updated_at: tick.policyUpdatedAt.toISOString(),
    next_tick_at: tick.nextTickAt.toISOString(),
  }));
  const rows = await db.sql.query<{ kept: number }>(RECORD_TICKS, [JSON.stringify(payload)]);
  return rows[0]?.kept ?? 0;
}
