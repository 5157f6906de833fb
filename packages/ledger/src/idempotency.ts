import type { Books } from './books';
import { randomBytes } from 'node:crypto';

/**
 * How long a completed record is kept: a retry within this window replays, one after it (once
 * swept) runs as a new request. `sweepIdempotencyKeys` deletes what is older.
 */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

/** 1..255 printable ASCII characters (the database checks the same). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

/** One record: whose key space, which operation, which key. */
export interface IdempotencyKeyRef {
  /** `key:<apiKeyId>` or `public:<ip>`: two callers never see each other's records. */
  readonly scope: string;
  readonly operation: string;
  readonly key: string;
}

export interface ClaimIdempotencyKeyParameters extends IdempotencyKeyRef {
  readonly wallet: string | null;
  /** sha256 hex of the request; the same key with another hash is a mismatch. */
  readonly requestHash: string;
  /** How long the claim holds; after that its owner is presumed dead and it can be taken over. */
  readonly lockMs: number;
}

/** A claim held by one request; only its holder can complete or release it. */
export interface IdempotencyClaim extends IdempotencyKeyRef {
  readonly claimToken: string;
}

/** A final response, stored as the exact bytes first sent. */
export interface IdempotentResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}

export type ClaimIdempotencyKeyReturnType =
  | { readonly kind: 'claimed'; readonly claimToken: string }
  | ({ readonly kind: 'replay' } & IdempotentResponse)
  | { readonly kind: 'mismatch' }
  | { readonly kind: 'in_progress' };

interface KeyRow {
  request_hash: string;
  state: 'in_progress' | 'completed';
  response_status: number | null;
  response_headers: Record<string, string> | null;
  /** Base64: a BYTEA column read through Prisma's PGlite adapter fails to deserialize. */
  response_body: string | null;
  expired: boolean;
}

// A row can vanish between the insert and the read (its claim was released): go round again.
const CLAIM_ATTEMPTS = 5;

/**
 * Claims `key` for one request, atomically: the first caller inserts an in_progress row and
 * gets `claimed`; later callers get the stored response (`replay`), `mismatch` when their
 * request hash differs, or `in_progress` while the holder's lease runs. A lease that has passed
 * is taken over by exactly one caller (a conditional UPDATE).
 *
 * @example
 * const ref = { scope: 'key:key_1', operation: 'routeFunds', key: 'a1' };
 * const claim = await claimIdempotencyKey(db, { ...ref, wallet, requestHash, lockMs: 30_000 });
 * if (claim.kind === 'claimed') {
 *   await completeIdempotencyKey(db, { ...ref, claimToken: claim.claimToken }, response);
 * }
 */
export async function claimIdempotencyKey(
  db: Books,
  parameters: ClaimIdempotencyKeyParameters,
): Promise<ClaimIdempotencyKeyReturnType> {
  const { scope, wallet, operation, key, requestHash, lockMs } = parameters;
  const claimToken = randomBytes(16).toString('hex');
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt += 1) {
    const inserted = await db.$queryRaw<unknown[]>`
      INSERT INTO idempotency_keys (scope, wallet, operation, key, request_hash, state,
                                    claim_token, locked_until)
      VALUES (${scope}, ${wallet}, ${operation}, ${key}, ${requestHash}, 'in_progress',
              ${claimToken}, now() + ${lockMs}::double precision * interval '1 millisecond')
      ON CONFLICT DO NOTHING
      RETURNING 1`;
    if (inserted.length === 1) return { kind: 'claimed', claimToken };
    // A separate statement: under READ COMMITTED it sees the row the insert collided with.
    const [row] = await db.$queryRaw<KeyRow[]>`
      SELECT request_hash, state, response_status, response_headers,
             encode(response_body, 'base64') AS response_body, locked_until < now() AS expired
      FROM idempotency_keys
      WHERE scope = ${scope} AND operation = ${operation} AND key = ${key}`;
    if (!row) continue;
    if (row.request_hash !== requestHash) return { kind: 'mismatch' };
    if (row.state === 'completed') {
      return {
        kind: 'replay',
        status: row.response_status ?? 0,
        headers: row.response_headers ?? {},
        body: Buffer.from(row.response_body ?? '', 'base64'),
      };
    }
    if (!row.expired) return { kind: 'in_progress' };
    const taken = await db.$queryRaw<unknown[]>`
      UPDATE idempotency_keys
      SET claim_token = ${claimToken}, wallet = ${wallet},
          locked_until = now() + ${lockMs}::double precision * interval '1 millisecond'
      WHERE scope = ${scope} AND operation = ${operation} AND key = ${key}
        AND state = 'in_progress' AND request_hash = ${requestHash} AND locked_until < now()
      RETURNING 1`;
    if (taken.length === 1) return { kind: 'claimed', claimToken };
  }
  return { kind: 'in_progress' };
}

/**
 * Stores the final response of a claim (status below 500) so retries replay it. False when the
 * claim is no longer held (its lease passed and another request took it over).
 */
export async function completeIdempotencyKey(
  db: Books,
  claim: IdempotencyClaim,
  response: IdempotentResponse,
): Promise<boolean> {
  const count = await db.$executeRaw`
    UPDATE idempotency_keys
    SET state = 'completed', response_status = ${response.status},
        response_headers = ${JSON.stringify(response.headers)}::jsonb,
        response_body = ${Buffer.from(response.body)}, completed_at = now()
    WHERE scope = ${claim.scope} AND operation = ${claim.operation} AND key = ${claim.key}
      AND claim_token = ${claim.claimToken} AND state = 'in_progress'`;
  return count === 1;
}

/**
 * Drops a claim without a stored response (after a 5xx or an exception), so the client's retry
 * runs again. False when the claim is no longer held.
 */
export async function releaseIdempotencyKey(db: Books, claim: IdempotencyClaim): Promise<boolean> {
  const count = await db.$executeRaw`
    DELETE FROM idempotency_keys
    WHERE scope = ${claim.scope} AND operation = ${claim.operation} AND key = ${claim.key}
      AND claim_token = ${claim.claimToken} AND state = 'in_progress'`;
  return count === 1;
}

/**
 * Deletes completed records older than `olderThan` (default: the 24 h retention) and claims
 * abandoned that long ago; returns how many. Run it periodically (keeper).
 */
export async function sweepIdempotencyKeys(
  db: Books,
  olderThan: Date = new Date(Date.now() - IDEMPOTENCY_RETENTION_MS),
): Promise<number> {
  return db.$executeRaw`
    DELETE FROM idempotency_keys WHERE COALESCE(completed_at, locked_until) < ${olderThan}`;
}
