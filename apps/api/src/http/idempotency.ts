import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Response } from 'express';
import type {
  Books,
  ClaimIdempotencyKeyParameters,
  ClaimIdempotencyKeyReturnType,
  IdempotencyKeyRef,
  IdempotencyRecords,
  IdempotentResponse,
  IdempotentWrite,
  RecordedRows,
  WriteRecorder,
} from '@yieldrouter/engine';
import { IDEMPOTENCY_KEY_PATTERN } from '@yieldrouter/engine';
import { ApiError, errorReply, knownApiError } from './apiError';
import { guardRequestPart } from './requestGuard';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
const FIELD = 'header.Idempotency-Key';
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** How long a concurrent request with the same key waits for the first one to finish. */
const WAIT_MS = 2_000;
const POLL_MS = 50;
function checkedKey(raw: string, field: string): string {
  if (!IDEMPOTENCY_KEY_PATTERN.test(raw)) {
    throw new ApiError('BAD_REQUEST', `${field}: must be 1 to 255 printable ASCII characters`, {
      field,
    });
  }
  // Stored with the outcome: a key-shaped value is refused like one in a body (use a UUID).
  guardRequestPart(raw, field);
  return raw;
}

const BODY_KEY = 'idempotencyKey';
const BODY_FIELD = `body.${BODY_KEY}`;

/**
 * The request's Idempotency-Key: the header, or `idempotencyKey` in the body where the route's
 * body takes it (v1 clients send it there). The body field is removed from `body`, so the same
 * write keyed either way is the same request. Undefined when absent; 400 when malformed, or
 * when the header and the body name different keys.
 */
export function readIdempotencyKey(
  header: string | undefined,
  body?: Record<string, unknown>,
): string | undefined {
  const fromHeader = header === undefined ? undefined : checkedKey(header, FIELD);
  const inBody = body?.[BODY_KEY];
  if (typeof inBody !== 'string') return fromHeader;
  delete body?.[BODY_KEY];
  const fromBody = checkedKey(inBody, BODY_FIELD);
  if (fromHeader !== undefined && fromHeader !== fromBody) {
    throw new ApiError(
      'BAD_REQUEST',
      `${BODY_FIELD}: differs from the Idempotency-Key header; send one, or the same in both`,
      { field: BODY_FIELD },
    );
  }
  return fromBody;
}

/**
 * The form an Idempotency-Key is stored and looked up in: its sha256, so no caller's token (a
 * 64-hex key is a valid one) is ever written to a row as sent.
 */
export function storedIdempotencyKey(key: string): string {
  return `sha256:${createHash('sha256').update(key).digest('hex')}`;
}

/** JSON with object keys sorted at every depth; bigint as its decimal string. */
function canonicalJson(value: unknown): string {
  if (typeof value === 'bigint') return JSON.stringify(value.toString());
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value)
    .filter(([, field]) => field !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([name, field]) => `${JSON.stringify(name)}:${canonicalJson(field)}`).join(',')}}`;
}

/**
 * sha256 hex of the operation and the request as parsed, so key order, whitespace and defaults
 * in the raw JSON do not make two equal requests differ.
 */
export function idempotencyRequestHash(
  operationId: string,
  request: { readonly params: unknown; readonly query: unknown; readonly body: unknown },
): string {
  return createHash('sha256')
    .update(`${operationId}\n${canonicalJson(request)}`)
    .digest('hex');
}

/** The response an ApiError (or EngineError) gets from the error handler, as bytes. */
function errorResponse(error: unknown, requestId: string): IdempotentResponse | null {
  const apiError = knownApiError(error);
  if (!apiError) return null;
  const { status, body } = errorReply(apiError, requestId);
  return {
    status,
    headers: { ...apiError.headers, 'Content-Type': JSON_CONTENT_TYPE },
    body: Buffer.from(JSON.stringify(body)),
  };
}

function send(res: Response, response: IdempotentResponse, replayed: boolean): void {
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  if (replayed) res.setHeader('Idempotent-Replayed', 'true');
  res.statusCode = response.status;
  res.setHeader('Content-Length', response.body.byteLength);
  res.end(response.body);
}

type Claim =
  ClaimIdempotencyKeyReturnType | { readonly kind: 'written'; readonly write: IdempotentWrite };

/**
 * The write's stored outcome, or the caller's claim. A fresh key takes one statement; a retry
 * (the caller's record exists) claims again, taking over a dead claim whose lease passed, and
 * looks for the write's outcome, waiting up to WAIT_MS while a twin runs.
 */
async function claimOrWait(
  records: IdempotencyRecords,
  parameters: ClaimIdempotencyKeyParameters,
  write: IdempotencyKeyRef,
): Promise<Claim> {
  const first = await records.claimFirst({ ...parameters, write });
  if (first.kind !== 'taken') return first;
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const claim = await records.claim(parameters);
    if (claim.kind === 'replay' || claim.kind === 'mismatch') return claim;
    // The holder may have committed its write and died before its HTTP record was completed.
    const written = await records.findWrite(write);
    if (written) {
      if (claim.kind === 'claimed') {
        const held = { ...parameters, claimToken: claim.claimToken };
        await records.complete(held, written).catch(() => false);
      }
      return { kind: 'written', write: written };
    }
    if (claim.kind === 'claimed' || Date.now() + POLL_MS > deadline) return claim;
    await sleep(POLL_MS);
  }
}

/**
 * Stores a response as the outcome of the write, inside `tx`, the transaction that writes the
 * write's effect. Given to the handler (see HandlerContext.recordWrite).
 */
export interface ResponseRecorder {
  (tx: Books | undefined, response: IdempotentResponse): Promise<void>;
  /** The same record as rows, for a use case that writes its effect in one statement. */
  rows(response: IdempotentResponse): RecordedRows;
}

/** A use case's recorder of `answer(outcome)` through `record`: in its transaction, or as rows. */
export function answerRecorder<T>(
  record: ResponseRecorder,
  answer: (outcome: T) => IdempotentResponse,
): WriteRecorder<T> {
  return Object.assign((tx: Books, outcome: T) => record(tx, answer(outcome)), {
    rows: (outcome: T) => record.rows(answer(outcome)),
  });
}

export interface RespondIdempotentlyParameters {
  /** Where the records are kept (the app's store). */
  readonly records: IdempotencyRecords;
  /** The caller's record space: `key:<apiKeyId>` or `public:<ip>`. */
  readonly scope: string;
  /**
   * Whose write it is: `wallet:<address>` for a route that names a wallet (whichever API key
   * of its owner calls), else the caller's scope.
   */
  readonly writeScope: string;
  readonly wallet: string | null;
  readonly operation: string;
  readonly key: string;
  readonly requestHash: string;
  readonly requestId: string;
  /**
   * How long the claim holds before its owner is presumed dead and a retry may run the request
   * again (SVC_IDEMPOTENCY_LOCK_MS); well above any handler's upstream timeouts.
   */
  readonly lockMs: number;
  /**
   * Runs the handler; resolves to the exact response to send (and store). A handler that writes
   * calls `record` inside its transaction with the response it will answer.
   */
  readonly execute: (record: ResponseRecorder) => Promise<IdempotentResponse>;
}

const reused = () =>
  new ApiError(
    'IDEMPOTENCY_KEY_REUSED',
    `${FIELD}: this key was already used with a different request`,
    {
      field: FIELD,
    },
  );

/**
 * Answers a request that carries an Idempotency-Key, exactly once whatever the timing of a
 * crash or a retry:
 *
 * - A write's outcome is kept in `idempotent_writes` under (wallet, operation, key), committed
 *   in the same transaction as its effect (the handler calls `record` there), and kept for
 *   good. A retry, from any API key of the wallet's owner and however late, gets that answer;
 *   a run racing it (a retry after a lease, another API key) fails to record, rolls its effect
 *   back and answers with the first outcome. A 2xx answer of a handler that wrote nothing is
 *   recorded the same way before it is sent.
 * - The caller's HTTP record (`idempotency_keys`, per API key or client, 24 h) serialises twins:
 *   while the first runs, a retry waits up to 2 s, then 409 IDEMPOTENCY_IN_PROGRESS with
 *   Retry-After; it also replays final 4xx answers (INSUFFICIENT_LIQUID, …), which write nothing.
 * - Replays carry `Idempotent-Replayed: true` and the first bytes (an error body keeps the first
 *   requestId). The same key with another request is 422 IDEMPOTENCY_KEY_REUSED. A 5xx or an
 *   exception before anything committed releases the key so the retry runs again.
 */
export async function respondIdempotently(
  res: Response,
  parameters: RespondIdempotentlyParameters,
): Promise<void> {
  const { records, scope, wallet, operation, key, requestHash, requestId, lockMs, execute } =
    parameters;
  const write: IdempotencyKeyRef = { scope: parameters.writeScope, operation, key };
  const replayWrite = (stored: IdempotentWrite) => {
    if (stored.requestHash !== requestHash) throw reused();
    send(res, stored, true);
  };
  const claim = await claimOrWait(
    records,
    { scope, wallet, operation, key, requestHash, lockMs },
    write,
  );
  switch (claim.kind) {
    case 'written':
      replayWrite(claim.write);
      return;
    case 'replay':
      send(res, claim, true);
      return;
    case 'mismatch':
      throw reused();
    case 'in_progress':
      throw new ApiError(
        'IDEMPOTENCY_IN_PROGRESS',
        `${FIELD}: a request with this key is still running; retry shortly`,
        { field: FIELD, headers: { 'Retry-After': '1' } },
      );
    case 'claimed':
      break;
  }
  const held = { scope, operation, key, claimToken: claim.claimToken };
  let recorded: IdempotentResponse | undefined;
  const recordable = (response: IdempotentResponse) => {
    if (response.status < 200 || response.status > 299) {
      throw new Error(`${operation}: only a 2xx answer is recorded as a write's outcome`);
    }
    return { ...write, requestHash, ...response };
  };
  const record: ResponseRecorder = Object.assign(
    async (tx: Books | undefined, response: IdempotentResponse) => {
      // The caller's HTTP record is completed in the same statement.
      await records.record(tx, recordable(response), held);
      recorded = response;
    },
    {
      rows: (response: IdempotentResponse): RecordedRows => ({
        audit: [],
        answer: { write: recordable(response), claim: held },
        committed: () => {
          recorded = response;
        },
      }),
    },
  );
  let response: IdempotentResponse;
  try {
    response = await execute(record).catch((error: unknown) => {
      const final = errorResponse(error, requestId);
      if (!final || final.status >= 500) throw error;
      return final;
    });
    if (!recorded && response.status >= 200 && response.status <= 299) {
      // Nothing was written in a transaction of the handler's: record the answer before it is
      // sent (a crash before this point sent nothing, so running again is the first answer).
      await record(undefined, response);
    }
  } catch (error) {
    // Another run recorded first, or this run's write committed and something failed after
    // it: the stored outcome is the answer.
    const committed = await records.findWrite(write).catch(() => undefined);
    if (committed) {
      await records.complete(held, committed).catch(() => false);
      const ours = recorded !== undefined && Buffer.from(recorded.body).equals(committed.body);
      if (ours) send(res, committed, false);
      else replayWrite(committed);
      return;
    }
    // The original error is what matters; a failed release only delays the retry to the lease.
    await records.release(held).catch(() => false);
    throw error;
  }
  if (response.status >= 500) {
    await records.release(held);
    send(res, response, false);
    return;
  }
  if (recorded) {
    send(res, response, false);
    return;
  }
  const stored = await records.complete(held, response).then(
    () => null,
    (error: unknown) => ({ error }),
  );
  // The answer is final (a write's outcome is already recorded with its effect): the caller
  // gets it even if the HTTP record could not be stored (the error handler still logs it).
  send(res, response, false);
  if (stored) throw stored.error;
}
