import type { Books } from './books';
import type { AuditEventInput } from './auditEvents';
import { auditEventPayload } from './auditEvents';
import { BatchQueue } from './batchQueue';
import type { BatchResult } from './batchQueue';
import type { AccountRef, JournalEntryInput, LedgerChain } from './journal';
import { journalEntryPayload, keyOf, retryTransient, toLedgerError } from './journal';
import type { LegRow, LegStatus, OutboxEventInput, SettlementLeg } from './legs';
import { LEG_COLUMNS, LEG_TABLES, outboxPayload, toLeg } from './legs';
import type { StoredPlanSimulation } from './planSimulations';
import type { SqlClient } from './sqlClient';
import { sqlStatement } from './sqlClient';

/** A leg to settle, and the transaction the caller says carries it. */
export interface LegToSettleKey {
  readonly planId: string;
  readonly legIndex: number;
  readonly txId: string;
}

/** The leg that holds a transaction id, and where it stands. */
export interface TxClaim {
  readonly planId: string;
  readonly legIndex: number;
  readonly status: LegStatus;
}

/** The leg, and the leg that already claimed `txId` if any (a transaction settles one leg). */
export interface LegToSettle {
  readonly leg: SettlementLeg;
  readonly txClaim: TxClaim | undefined;
  /**
   * The plan's simulation at prepare (issue 44), read with the leg so a confirmed leg is
   * compared with it without another statement; null for a plan stored without one.
   */
  readonly simulation: StoredPlanSimulation | null;
}

/** A position's next state, written with the outcome if the position is still at `version`. */
export interface PositionChange {
  readonly wallet: string;
  readonly chain: string;
  readonly opportunityId: string;
  readonly venueId: string;
  /** The version the change was computed from. */
  readonly version: bigint;
  readonly shares: bigint;
  readonly markMicros: bigint;
  readonly feesRetainedMicros: bigint;
}

/**
 * A balance an outcome was computed from (migration 0041): read again under the locks that book
 * the outcome; when it moved, nothing is written and the outcome is `stale` (compute again).
 */
export interface BalanceGuard {
  /** A wallet account. */
  readonly account: AccountRef;
  /** Only what this plan's entries put in the account (its share), not the whole balance. */
  readonly planId?: string;
  readonly expectMicros: bigint;
}

/**
 * An outcome of a leg, with what it posts and reports: `confirmed` / `failed` are final (a
 * receipt proved the leg's own transaction); `expired` / `cancelled` release the reservation
 * and leave the leg confirmable by a late landing.
 */
export interface LegOutcomeInput {
  readonly planId: string;
  readonly legIndex: number;
  /** The transaction the outcome is for; none for an unsigned leg expired or cancelled. */
  readonly txId: string | null;
  readonly outcome:
    | {
        readonly status: 'confirmed';
        readonly settledAmountMicros: bigint;
        readonly shares: bigint | null;
        /** What the treasury received inside the leg's transaction (an exit's inline skim, 0066). */
        readonly skimMicros?: bigint;
        readonly reviewReason: string | null;
      }
    | { readonly status: 'failed'; readonly reason: string }
    | { readonly status: 'expired' | 'cancelled'; readonly reason: string };
  /** The statuses the outcome was computed from; a leg found in another is `stale`. */
  readonly expect: readonly LegStatus[];
  /** The outcome releases the leg's reservation (expired, cancelled). */
  readonly releases?: boolean;
  /** Another leg holding `txId` that the receipt proved is not its own: it gives it up. */
  readonly takeover?: { readonly planId: string; readonly legIndex: number };
  readonly position?: PositionChange;
  /** Posted with the outcome; none when the outcome moves no money. */
  readonly entry?: JournalEntryInput;
  /** The balances the outcome was computed from (none: it depends on none). */
  readonly guards?: readonly BalanceGuard[];
  /**
   * An auto-pay transfer leg's share moved between auto_pay and liquid: the pool un-commits it
   * and holds it as returned (released), or takes it back (a late landing; negative).
   */
  readonly autoPayReturnMicros?: bigint;
  /**
   * An auto-pay leg's wallet (0041): once the run's withdraw is no longer open, what its plan
   * holds in auto_pay beyond its open payouts goes back to liquid and to the pool.
   */
  readonly autoPaySweep?: { readonly wallet: string; readonly chain: LedgerChain };
  readonly events: readonly OutboxEventInput[];
  /**
   * The audit rows of the call that computed the outcome (a settle request's): inserted in the
   * statement that writes the outcome, so they commit with it, and only when it is written
   * (none for a leg already final, or stale).
   */
  readonly audit?: readonly AuditEventInput[];
  readonly now: Date;
}

/**
 * What the leg holds after the call: `final` when it was final already and `stale` when the
 * leg or its position moved since the outcome was computed (nothing written either way).
 */
export interface LegOutcomeState {
  readonly final: boolean;
  readonly stale: boolean;
  readonly status: LegStatus;
  readonly txId: string | null;
  readonly settledAmountMicros: bigint | null;
  readonly failureReason: string | null;
}

// Keys in, one row per key found. `plan_id = ANY(…)` reaches plan_legs through its primary key
// whatever the planner guesses of the JSON; the txId claim is a LIMIT 1 lateral on its index;
// the plan's simulation comes along (one statement per batch instead of one per settlement).
const LEGS_TO_SETTLE = sqlStatement(
  'yr_legs_to_settle_v6',
  `
  WITH k AS (
    SELECT t.e ->> 'planId' AS plan_id, (t.e ->> 'legIndex')::int AS leg_index,
           t.e ->> 'txId' AS tx_id, t.n::int AS ord
    FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(e, n)
  )
  SELECT k.ord, ${LEG_COLUMNS}, c.plan_id AS claim_plan_id, c.leg_index AS claim_leg_index,
         c.status AS claim_status, s.status AS simulation_status,
         s.digest AS simulation_digest, s.document AS simulation_document
  FROM k
  JOIN ${LEG_TABLES} ON l.plan_id = k.plan_id AND l.leg_index = k.leg_index
  LEFT JOIN plan_simulations s ON s.plan_id = l.plan_id
  LEFT JOIN LATERAL (
    SELECT x.plan_id, x.leg_index, x.status FROM plan_legs x WHERE x.tx_id = k.tx_id LIMIT 1
  ) c ON true
  WHERE l.plan_id = ANY (ARRAY(SELECT plan_id FROM k))`,
);

interface LegToSettleRow extends LegRow {
  ord: number;
  claim_plan_id: string | null;
  claim_leg_index: number | null;
  claim_status: LegStatus | null;
  simulation_status: StoredPlanSimulation['status'] | null;
  simulation_digest: string | null;
  simulation_document: StoredPlanSimulation['document'];
}

const toLegToSettle = (row: LegToSettleRow): LegToSettle => ({
  leg: toLeg(row),
  txClaim:
    row.claim_plan_id === null || row.claim_leg_index === null || row.claim_status === null
      ? undefined
      : { planId: row.claim_plan_id, legIndex: row.claim_leg_index, status: row.claim_status },
  simulation:
    row.simulation_status === null
      ? null
      : {
          status: row.simulation_status,
          digest: row.simulation_digest,
          document: row.simulation_document,
        },
});

/** Several legs to settle in one query, in the order asked (undefined: no such leg). */
export async function findLegsToSettle(
  sql: SqlClient,
  keys: readonly LegToSettleKey[],
): Promise<(LegToSettle | undefined)[]> {
  const rows = await sql.query<LegToSettleRow>(LEGS_TO_SETTLE, [
    JSON.stringify(keys.map(({ planId, legIndex, txId }) => ({ planId, legIndex, txId }))),
  ]);
  const found: (LegToSettle | undefined)[] = keys.map(() => undefined);
  for (const row of rows) found[row.ord - 1] = toLegToSettle(row);
  return found;
}

const RECORD_LEG_OUTCOMES = sqlStatement(
  'yr_record_leg_outcomes_v2',
  `
  SELECT ord, final, stale, status, tx_id,
         settled_amount_micros::text AS settled_amount_micros, failure_reason
  FROM ledger_record_leg_outcomes($1::jsonb)`,
);

interface LegOutcomeRow {
  ord: number;
  final: boolean;
  stale: boolean;
  status: LegStatus;
  tx_id: string | null;
  settled_amount_micros: string | null;
  failure_reason: string | null;
}

/** An outcome as `ledger_record_leg_outcomes` takes it (the entry's shape checked here). */
function outcomePayload(input: LegOutcomeInput) {
  const { outcome, position } = input;
  return {
    planId: input.planId,
    legIndex: input.legIndex,
    txId: input.txId,
    status: outcome.status,
    expect: input.expect,
    ...(outcome.status === 'confirmed'
      ? {
          settledAmount: outcome.settledAmountMicros.toString(),
          shares: outcome.shares?.toString() ?? null,
          ...(outcome.skimMicros === undefined
            ? {}
            : { skimMicros: outcome.skimMicros.toString() }),
          reviewReason: outcome.reviewReason,
        }
      : { reason: outcome.reason }),
    released: input.releases === true,
    takeover: input.takeover ?? null,
    position: position
      ? {
          wallet: position.wallet,
          chain: position.chain,
          opportunityId: position.opportunityId,
          venueId: position.venueId,
          version: position.version.toString(),
          shares: position.shares.toString(),
          mark: position.markMicros.toString(),
          feesRetained: position.feesRetainedMicros.toString(),
        }
      : null,
    now: input.now.toISOString(),
    entry: input.entry ? journalEntryPayload(input.entry) : null,
    ...(input.guards && input.guards.length > 0
      ? {
          guards: input.guards.map((guard) => ({
            ...keyOf(guard.account),
            planId: guard.planId ?? null,
            expect: guard.expectMicros.toString(),
          })),
        }
      : {}),
    ...(input.autoPaySweep
      ? {
          autoPaySweep: (['auto_pay', 'liquid'] as const).map((bucket) =>
            keyOf({ ...input.autoPaySweep, bucket } as AccountRef),
          ),
        }
      : {}),
    ...(input.autoPayReturnMicros !== undefined && input.autoPayReturnMicros !== 0n
      ? { autoPayReturn: input.autoPayReturnMicros.toString() }
      : {}),
    events: outboxPayload(input.events),
    audit: (input.audit ?? []).map(auditEventPayload),
  };
}

/**
 * Records final outcomes of settling legs in one autocommit statement
 * (`ledger_record_leg_outcomes`, migrations 0011 and 0019): under the legs' row locks, a leg
 * already final is reported as it stands; the others are updated, their entries posted, their
 * events and their audit rows written. All or nothing: one overdraft (`LedgerError`
 * INSUFFICIENT_BALANCE for a single outcome), or one audit row refused, writes nothing for any
 * of them.
 */
export async function recordLegOutcomes(
  sql: SqlClient,
  inputs: readonly LegOutcomeInput[],
): Promise<LegOutcomeState[]> {
  const payload = JSON.stringify(inputs.map(outcomePayload));
  const rows = await retryTransient(async () => {
    try {
      return await sql.query<LegOutcomeRow>(RECORD_LEG_OUTCOMES, [payload]);
    } catch (error) {
      const entry = inputs.length === 1 ? inputs[0]?.entry : undefined;
      throw entry ? toLedgerError(error, entry) : error;
    }
  });
  const states: LegOutcomeState[] = [];
  for (const [index, input] of inputs.entries()) {
    const row = rows[index];
    if (!row || row.ord !== index + 1) {
      throw new Error(`ledger_record_leg_outcomes returned no row for ${input.planId}`);
    }
    states.push({
      final: row.final,
      stale: row.stale,
      status: row.status,
      txId: row.tx_id,
      settledAmountMicros:
        row.settled_amount_micros === null ? null : BigInt(row.settled_amount_micros),
      failureReason: row.failure_reason,
    });
  }
  return states;
}

/** Where a leg outcome is recorded: grouped (`LegSettlements`), or in a caller's transaction. */
export interface LegOutcomeWriter {
  record(input: LegOutcomeInput): Promise<LegOutcomeState>;
}

/**
 * Outcomes recorded in `db`, one statement each: inside a use case's transaction, they commit
 * with whatever else it writes (an audit row) or not at all.
 */
export function legOutcomesIn(db: Pick<Books, 'sql'>): LegOutcomeWriter {
  const sql = db.sql;
  return { record: async (input) => (await recordLegOutcomes(sql, [input]))[0] as LegOutcomeState };
}

export interface LegSettlementsOptions {
  /** Outcomes (and leg reads) per statement at most (default 32). */
  readonly maxBatch?: number;
  /**
   * Statements of each kind running at once (default 1). Most of a statement's database CPU is
   * set-up paid once per statement (an outcome statement runs some twenty plpgsql statements,
   * their triggers and a commit), and while one runs the next batch fills: at 16 concurrent
   * settlements one of each in flight carries 5.3 reads and 7.8 outcomes a statement, against
   * 2.8 and 3.9 with two, for 0.39–0.55 ms of PostgreSQL CPU per settlement instead of
   * 0.65–0.77 (and batches no longer wait on each other's account locks).
   */
  readonly maxInFlight?: number;
}

const settled = <O>(value: O): BatchResult<O> => ({ ok: true, value });
const refused = <O>(error: unknown): BatchResult<O> => ({ ok: false, error });

/**
 * Settlement's reads and writes, grouped: concurrent settlements (the keeper's watch, owners'
 * settle calls, several API requests) share one leg query and one outcome statement per batch
 * (`BatchQueue`). A caller alone is sent at once; under load each statement carries what
 * queued while the previous one ran. Each caller still gets exactly its own answer (and, with
 * its outcome, its own audit rows): a batch that fails as a whole (one overdraft, a txId claimed
 * twice) is recorded again outcome by outcome, so the error lands on the outcome that caused it
 * and the others are written.
 */
export class LegSettlements implements LegOutcomeWriter {
  private readonly reads: BatchQueue<LegToSettleKey, LegToSettle | undefined>;
  private readonly writes: BatchQueue<LegOutcomeInput, LegOutcomeState>;

  constructor(sql: SqlClient, options: LegSettlementsOptions = {}) {
    const maxBatch = options.maxBatch ?? 32;
    const maxInFlight = options.maxInFlight ?? 1;
    this.reads = new BatchQueue(async (keys) => (await findLegsToSettle(sql, keys)).map(settled), {
      maxBatch,
      maxInFlight,
    });
    this.writes = new BatchQueue(
      async (inputs) => {
        try {
          return (await recordLegOutcomes(sql, inputs)).map(settled);
        } catch (error) {
          if (inputs.length === 1) return [refused(error)];
          return Promise.all(
            inputs.map((input) =>
              recordLegOutcomes(sql, [input]).then(
                (states) => settled(states[0] as LegOutcomeState),
                (alone: unknown) => refused<LegOutcomeState>(alone),
              ),
            ),
          );
        }
      },
      // One leg's outcomes never share a statement: the second waits and sees the first.
      // (Outcomes of one position in a batch: the first is written, the others come back
      // stale and are computed again.)
      { maxBatch, maxInFlight, keyOf: (input) => `${input.planId}/${input.legIndex}` },
    );
  }

  /** The leg to settle with `txId` (undefined: no such leg). */
  find(key: LegToSettleKey): Promise<LegToSettle | undefined> {
    return this.reads.push(key);
  }

  /** Records a leg's final outcome (see `recordLegOutcomes`). */
  record(input: LegOutcomeInput): Promise<LegOutcomeState> {
    return this.writes.push(input);
  }
}
