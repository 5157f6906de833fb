import type { Prisma } from './generated/prisma/client';
import type { PrismaClientOrTransaction } from './apiKeys';
import type { IdempotencyKeyRef, IdempotentResponse } from './idempotency';

/**
 * Runs inside the transaction that writes an effect, with the outcome the write will answer:
 * a use case that takes one calls it last in that transaction, so the effect and the stored
 * answer commit together (see `recordIdempotentWrite`).
 */
export type WriteRecorder<T> = (tx: Prisma.TransactionClient, outcome: T) => Promise<void>;

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

/** The stored outcome of a write, or undefined when none committed. */
export async function findIdempotentWrite(
  db: PrismaClientOrTransaction,
  ref: IdempotencyKeyRef,
): Promise<IdempotentWrite | undefined> {
  const [row] = await db.$queryRaw<WriteRow[]>`
    SELECT request_hash, response_status, response_headers, response_body
    FROM idempotent_writes
    WHERE scope = ${ref.scope} AND operation = ${ref.operation} AND key = ${ref.key}`;
  if (!row) return undefined;
  return {
    requestHash: row.request_hash,
    status: row.response_status,
    headers: row.response_headers,
    body: Buffer.from(row.response_body, 'utf8'),
  };
}

/**
 * Stores the outcome of a write (a 2xx JSON answer) under its key, in `tx`, the transaction
 * that writes the effect. When another run of the same write holds the key, the insert waits
 * for it; if it committed, this throws `IdempotentWriteTakenError` so that `tx` rolls back and
 * its effect with it: whatever the timing, one run's effect commits.
 *
 * @example
 * await runLedgerTransaction(prisma, async (tx) => {
 *   await insertPlan(tx, plan);
 *   await recordIdempotentWrite(tx, { scope, operation, key, requestHash, ...response });
 * });
 */
export async function recordIdempotentWrite(
  tx: PrismaClientOrTransaction,
  write: IdempotencyKeyRef & IdempotentWrite,
): Promise<void> {
  const inserted = await tx.$queryRaw<unknown[]>`
    INSERT INTO idempotent_writes (scope, operation, key, request_hash, response_status,
                                   response_headers, response_body)
    VALUES (${write.scope}, ${write.operation}, ${write.key}, ${write.requestHash},
            ${write.status}, ${JSON.stringify(write.headers)}::jsonb,
            ${Buffer.from(write.body).toString('utf8')})
    ON CONFLICT DO NOTHING
    RETURNING 1`;
  if (inserted.length !== 1) {
    throw new IdempotentWriteTakenError({
      scope: write.scope,
      operation: write.operation,
      key: write.key,
    });
  }
}
