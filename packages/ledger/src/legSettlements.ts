import { BatchQueue } from './batchQueue';
import type { BatchResult } from './batchQueue';
import type { JournalEntryInput } from './journal';
import { journalEntryPayload, retryTransient, toLedgerError } from './journal';
import type { LegRow, OutboxEventInput, SettlementLeg } from './legs';
import { LEG_COLUMNS, LEG_TABLES, outboxPayload, toLeg } from './legs';
import type { SqlClient } from './sqlClient';
import { sqlStatement } from './sqlClient';

/** A leg to settle, and the transaction the caller says carries it. */
export interface LegToSettleKey {
  readonly planId: string;
  readonly legIndex: number;
  readonly txId: string;
}

/** The leg, and the leg that already claimed `txId` if any (a transaction settles one leg). */
export interface LegToSettle {
  readonly leg: SettlementLeg;
  readonly txClaim: { readonly planId: string; readonly legIndex: number } | undefined;
}

/** The final outcome of a settling leg, with what it posts and reports. */
export interface LegOutcomeInput {
  readonly planId: string;
  readonly legIndex: number;
  readonly txId: string;
  readonly outcome:
    | { readonly status: 'confirmed'; readonly settledAmountMicros: bigint }
    | { readonly status: 'failed'; readonly reason: string };
  /** Posted with the outcome; none for a failed leg that reserved nothing. */
  readonly entry?: JournalEntryInput;
  readonly events: readonly OutboxEventInput[];
  readonly now: Date;
}

/** What the leg holds after the call: `final` when it was final already (nothing written). */
export interface LegOutcomeState {
  readonly final: boolean;
  readonly status: 'confirmed' | 'failed';
  readonly txId: string | null;
  readonly settledAmountMicros: bigint | null;
  readonly failureReason: string | null;
}

// Keys in, one row per key found. `plan_id = ANY(…)` reaches plan_legs through its primary key
// whatever the planner guesses of the JSON; the txId claim is a LIMIT 1 lateral on its index.
const LEGS_TO_SETTLE = sqlStatement(
  'yr_legs_to_settle',
  `
  WITH k AS (
    SELECT t.e ->> 'planId' AS plan_id, (t.e ->> 'legIndex')::int AS leg_index,
           t.e ->> 'txId' AS tx_id, t.n::int AS ord
    FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(e, n)
  )
  SELECT k.ord, ${LEG_COLUMNS}, c.plan_id AS claim_plan_id, c.leg_index AS claim_leg_index
  FROM k
  JOIN ${LEG_TABLES} ON l.plan_id = k.plan_id AND l.leg_index = k.leg_index
  LEFT JOIN LATERAL (
    SELECT x.plan_id, x.leg_index FROM plan_legs x WHERE x.tx_id = k.tx_id LIMIT 1
  ) c ON true
  WHERE l.plan_id = ANY (ARRAY(SELECT plan_id FROM k))`,
);

interface LegToSettleRow extends LegRow {
  ord: number;
  claim_plan_id: string | null;
  claim_leg_index: number | null;
}

const toLegToSettle = (row: LegToSettleRow): LegToSettle => ({
  leg: toLeg(row),
  txClaim:
    row.claim_plan_id === null || row.claim_leg_index === null
      ? undefined
      : { planId: row.claim_plan_id, legIndex: row.claim_leg_index },
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
  'yr_record_leg_outcomes',
  `
  SELECT ord, final, status, tx_id, settled_amount_micros::text AS settled_amount_micros,
         failure_reason
  FROM ledger_record_leg_outcomes($1::jsonb)`,
);

interface LegOutcomeRow {
  ord: number;
  final: boolean;
  status: 'confirmed' | 'failed';
  tx_id: string | null;
  settled_amount_micros: string | null;
  failure_reason: string | null;
}

/** An outcome as `ledger_record_leg_outcomes` takes it (the entry's shape checked here). */
function outcomePayload(input: LegOutcomeInput) {
  return {
    planId: input.planId,
    legIndex: input.legIndex,
    txId: input.txId,
    status: input.outcome.status,
    ...(input.outcome.status === 'confirmed'
      ? { settledAmount: input.outcome.settledAmountMicros.toString() }
      : { reason: input.outcome.reason }),
    now: input.now.toISOString(),
    entry: input.entry ? journalEntryPayload(input.entry) : null,
    events: outboxPayload(input.events),
  };
}

/**
 * Records final outcomes of settling legs in one autocommit statement
 * (`ledger_record_leg_outcomes`, migration 0010): under the legs' row locks, a leg already final
 * is reported as it stands; the others are updated, their entries posted and their events
 * written. All or nothing: one overdraft (`LedgerError` INSUFFICIENT_BALANCE for a single
 * outcome) writes nothing for any of them.
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
      status: row.status,
      txId: row.tx_id,
      settledAmountMicros:
        row.settled_amount_micros === null ? null : BigInt(row.settled_amount_micros),
      failureReason: row.failure_reason,
    });
  }
  return states;
}

export interface LegSettlementsOptions {
  /** Outcomes (and leg reads) per statement at most (default 32). */
  readonly maxBatch?: number;
  /** Statements of each kind running at once (default 2; PGlite runs one at a time anyway). */
  readonly maxInFlight?: number;
}

const settled = <O>(value: O): BatchResult<O> => ({ ok: true, value });
const refused = <O>(error: unknown): BatchResult<O> => ({ ok: false, error });

/**
 * Settlement's reads and writes, grouped: concurrent settlements (the keeper's watch, owners'
 * settle calls, several API requests) share one leg query and one outcome statement per batch
 * (`BatchQueue`). A caller alone is sent at once; under load each statement carries what
 * queued while the previous one ran. Each caller still gets exactly its own answer: a batch
 * that fails as a whole (one overdraft, a txId claimed twice) is recorded again outcome by
 * outcome, so the error lands on the outcome that caused it and the others are written.
 */
export class LegSettlements {
  private readonly reads: BatchQueue<LegToSettleKey, LegToSettle | undefined>;
  private readonly writes: BatchQueue<LegOutcomeInput, LegOutcomeState>;

  constructor(sql: SqlClient, options: LegSettlementsOptions = {}) {
    const maxBatch = options.maxBatch ?? 32;
    const maxInFlight = options.maxInFlight ?? 2;
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
