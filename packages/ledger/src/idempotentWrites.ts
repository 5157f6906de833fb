import type { AuditEventInput } from './auditEvents';
import type { Books } from './books';
import { randomBytes } from 'node:crypto';
import { sqlStatement } from './sqlClient';
import type {
  ClaimIdempotencyKeyParameters,
  IdempotencyClaim,
  IdempotencyKeyRef,
  IdempotentResponse,
} from './idempotency';

/**
 * Runs inside the transaction that writes an effect, with the outcome the write will answer:
 * a use case that takes one calls it in that transaction (before it takes hot balance locks,
 * where the outcome is known by then), so the effect and the stored answer commit together
 * (see `recordIdempotentWrite`).
 */
export interface WriteRecorder<T> {
  (tx: Books, outcome: T): Promise<void>;
  /**
   * The same records as rows, for a use case that writes its effect in one statement
   * (`writePlan`): it carries them there and calls `committed` once the statement committed.
   */
  readonly rows: (outcome: T) => RecordedRows;
}

/** What a recorder writes with a write's effect: the call's audit rows, and its answer. */
export interface RecordedRows {
  readonly audit: readonly AuditEventInput[];
  /** The answer stored under the write's key, and the caller's HTTP record it completes. */
  readonly answer?: {
    readonly write: IdempotencyKeyRef & IdempotentWrite;
    readonly claim: IdempotencyClaim;
  };
  committed(): void;
}

/** The first answer of a write, as stored. */
export interface IdempotentWrite extends IdempotentResponse {
  readonly requestHash: string;
}

/**
 * Another run of the same write (same scope, operation and key) committed first: the
 * transaction that tried to record this one must roll back, and the caller answers with the
 * stored outcome (`findIdempotentWrite`).
 */
export class IdempotentWriteTakenError extends Error {
  override readonly name = 'IdempotentWriteTakenError';
  constructor(readonly ref: IdempotencyKeyRef) {
    super(`${ref.operation} with Idempotency-Key ${ref.key} was already written (${ref.scope})`);
  }
}

interface WriteRow {
  request_hash: string;
  response_status: number;
  response_headers: Record<string, string>;
  response_body: string;
}

const toWrite = (row: WriteRow): IdempotentWrite => ({
  requestHash: row.request_hash,
  status: row.response_status,
  headers: row.response_headers,
  body: Buffer.from(row.response_body, 'utf8'),
});

export type ClaimFirstReturnType =
  | { readonly kind: 'written'; readonly write: IdempotentWrite }
  | { readonly kind: 'claimed'; readonly claimToken: string }
  /** The caller's HTTP record exists (a retry, or a twin): see `claimIdempotencyKey`. */
  | { readonly kind: 'taken' };

// The claim commits without waiting for its WAL flush (`synchronous_commit = off` for this
// statement's transaction only): it is a lease that serialises twins, not the write's outcome.
// A crash may lose the last claims made, never a committed write: the write's own statement
// commits synchronously (flushing the WAL up to and past the claim), and its answer is stored
// once per key (`idempotent_writes`), so a retry whose claim was lost still answers the first
// outcome.
const CLAIM_FIRST = sqlStatement(
  'yr_claim_first',
  `
  WITH written AS (
    SELECT request_hash, response_status, response_headers, response_body
    FROM idempotent_writes
    WHERE scope = $1 AND operation = $2 AND key = $3
  ), claimed AS (
    INSERT INTO idempotency_keys (scope, wallet, operation, key, request_hash, state,
                                  claim_token, locked_until)
    SELECT $4, $5, $6, $7, $8, 'in_progress', $9,
           now() + $10::double precision * interval '1 millisecond'
    WHERE NOT EXISTS (SELECT 1 FROM written)
    ON CONFLICT DO NOTHING
    RETURNING 1
  )
  SELECT (SELECT count(*)::int FROM claimed) AS claimed, w.*,
         set_config('synchronous_commit', 'off', true) AS commit_mode
  FROM (VALUES (1)) AS one (n) LEFT JOIN written w ON TRUE`,
);

/**
 * The first step of a request with an Idempotency-Key, in one statement: the write's stored
 * outcome when one committed (under `write`, whichever caller wrote it), else the caller's
 * claim (as `claimIdempotencyKey` makes it) when the caller has no record for the key yet.
 */
export async function claimFirst(
  db: Pick<Books, 'sql'>,
  parameters: ClaimIdempotencyKeyParameters & { readonly write: IdempotencyKeyRef },
): Promise<ClaimFirstReturnType> {
  const { scope, wallet, operation, key, requestHash, lockMs, write } = parameters;
  const claimToken = randomBytes(16).toString('hex');
  // On the driver (a named statement): the first statement of every keyed write.
  const [row] = await db.sql.query<Partial<WriteRow> & { claimed: number }>(CLAIM_FIRST, [
    write.scope,
    write.operation,
    write.key,
    scope,
    wallet,
    operation,
    key,
    requestHash,
    claimToken,
    lockMs,
  ]);
  if (row?.request_hash !== undefined && row.request_hash !== null) {
    return { kind: 'written', write: toWrite(row as WriteRow) };
  }
  return row?.claimed === 1 ? { kind: 'claimed', claimToken } : { kind: 'taken' };
}

/** The stored outcome of a write, or undefined when none committed. */
export async function findIdempotentWrite(
  db: Books,
  ref: IdempotencyKeyRef,
): Promise<IdempotentWrite | undefined> {
  const [row] = await db.$queryRaw<WriteRow[]>`
    SELECT request_hash, response_status, response_headers, response_body
    FROM idempotent_writes
    WHERE scope = ${ref.scope} AND operation = ${ref.operation} AND key = ${ref.key}`;
  return row && toWrite(row);
}

/**
 * Stores the outcome of a write (a 2xx JSON answer) under its key, in `tx`, the transaction
 * that writes the effect; with `claim`, the caller's HTTP record is completed with the same
 * answer in the same statement. When another run of the same write holds the key, the insert
 * waits for it; if it committed, this throws `IdempotentWriteTakenError` so that `tx` rolls
 * back and its effect with it: whatever the timing, one run's effect commits.
 *
 * @example
 * await prisma.transaction(async (tx) => {
 *   await insertPlan(tx, plan);
 *   await recordIdempotentWrite(tx, { scope, operation, key, requestHash, ...response });
 * });
 */
export async function recordIdempotentWrite(
  tx: Books,
  write: IdempotencyKeyRef & IdempotentWrite,
  claim?: IdempotencyClaim,
): Promise<void> {
  const body = Buffer.from(write.body);
  const headers = JSON.stringify(write.headers);
  const [row] = await tx.$queryRaw<{ written: number }[]>`
    WITH written AS (
      INSERT INTO idempotent_writes (scope, operation, key, request_hash, response_status,
                                     response_headers, response_body)
      VALUES (${write.scope}, ${write.operation}, ${write.key}, ${write.requestHash},
              ${write.status}, ${headers}::jsonb, ${body.toString('utf8')})
      ON CONFLICT DO NOTHING
      RETURNING 1
    ), completed AS (
      UPDATE idempotency_keys
      SET state = 'completed', response_status = ${write.status},
          response_headers = ${headers}::jsonb, response_body = ${body}, completed_at = now()
      WHERE scope = ${claim?.scope ?? null} AND operation = ${claim?.operation ?? null}
        AND key = ${claim?.key ?? null} AND claim_token = ${claim?.claimToken ?? null}
        AND state = 'in_progress' AND EXISTS (SELECT 1 FROM written)
      RETURNING 1
    )
    SELECT (SELECT count(*)::int FROM written) AS written, (SELECT count(*) FROM completed)`;
  if (row?.written !== 1) {
    throw new IdempotentWriteTakenError({
      scope: write.scope,
      operation: write.operation,
      key: write.key,
    });
  }
}
