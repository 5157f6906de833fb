import { auditEventPayload } from './auditEvents';
import type { RecordedRows } from './idempotentWrites';
import { IdempotentWriteTakenError } from './idempotentWrites';
import type { JournalEntryInput } from './journal';
import { journalEntryPayload, toLedgerError } from './journal';
import { planDocuments } from './planInsert';
import type { PlanInput } from './plans';
import type { SqlClient } from './sqlClient';
import { sqlStatement } from './sqlClient';

const WRITE_PLAN = sqlStatement(
  'yr_write_plan',
  'SELECT 1 AS done FROM ledger_write_plan($1::jsonb)',
);

/** Raised by `ledger_write_plan` when another run's answer holds the write's key (0063). */
const ANSWER_TAKEN = 'YR004';

/** The driver's error carries the SQLSTATE in `code`; Prisma's quotes it in the message. */
function isAnswerTaken(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    (error as { code?: unknown }).code === ANSWER_TAKEN || error.message.includes(ANSWER_TAKEN)
  );
}

export interface PlanWriteInput {
  readonly plan: PlanInput;
  /** Posted with the plan (its reservation); none when the plan reserves nothing. */
  readonly entry?: JournalEntryInput | undefined;
  /** The call's audit rows and its Idempotency-Key answer (`WriteRecorder.rows`). */
  readonly recorded?: Omit<RecordedRows, 'committed'> | undefined;
}

/**
 * Writes a plan with its legs, its journal entry, the call's audit rows and its stored answer
 * in one autocommit statement on the driver (`ledger_write_plan`, migration 0063): all of them
 * or nothing. When another run of the same write stored its answer first, nothing is written and
 * this throws `IdempotentWriteTakenError` (the caller answers with the stored outcome); an
 * overdraft is `LedgerError` INSUFFICIENT_BALANCE, as `postJournalEntry` reports it.
 */
export async function writePlan(sql: SqlClient, input: PlanWriteInput): Promise<void> {
  const { plan, entry, recorded } = input;
  const answer = recorded?.answer;
  const payload = {
    ...planDocuments([plan]),
    audit: (recorded?.audit ?? []).map(auditEventPayload),
    ...(answer
      ? {
          write: {
            scope: answer.write.scope,
            operation: answer.write.operation,
            key: answer.write.key,
            requestHash: answer.write.requestHash,
            status: answer.write.status,
            headers: answer.write.headers,
            body: Buffer.from(answer.write.body).toString('utf8'),
          },
          claim: answer.claim,
        }
      : {}),
    ...(entry ? { entry: journalEntryPayload(entry) } : {}),
  };
  try {
    await sql.query(WRITE_PLAN, [JSON.stringify(payload)]);
  } catch (error) {
    if (answer && isAnswerTaken(error)) {
      throw new IdempotentWriteTakenError(answer.write);
    }
    throw entry ? toLedgerError(error, entry) : error;
  }
}
