import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Response } from 'express';
import type {
  ClaimIdempotencyKeyParameters,
  ClaimIdempotencyKeyReturnType,
  IdempotentResponse,
  PrismaClientOrTransaction,
} from '@yieldrouter/ledger';
import {
  IDEMPOTENCY_KEY_PATTERN,
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
} from '@yieldrouter/ledger';
import { ApiError, errorReply, knownApiError } from './apiError';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
const FIELD = 'header.Idempotency-Key';
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** How long a concurrent request with the same key waits for the first one to finish. */
const WAIT_MS = 2_000;
const POLL_MS = 50;
/**
 * How long a claim holds before its owner is presumed dead and a retry may run the request
 * again; well above any handler's upstream timeouts.
 */
const LOCK_MS = 30_000;

/** The request's Idempotency-Key; undefined when absent, 400 when malformed. */
export function readIdempotencyKey(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (!IDEMPOTENCY_KEY_PATTERN.test(raw)) {
    throw new ApiError('BAD_REQUEST', `${FIELD}: must be 1 to 255 printable ASCII characters`, {
      field: FIELD,
    });
  }
  return raw;
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

async function claimOrWait(
  db: PrismaClientOrTransaction,
  parameters: ClaimIdempotencyKeyParameters,
): Promise<ClaimIdempotencyKeyReturnType> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    // Claiming again (not just reading) also takes over a released or dead claim at once.
    const claim = await claimIdempotencyKey(db, parameters);
    if (claim.kind !== 'in_progress' || Date.now() + POLL_MS > deadline) return claim;
    await sleep(POLL_MS);
  }
}

export interface RespondIdempotentlyParameters {
  readonly db: PrismaClientOrTransaction;
  /** `key:<apiKeyId>` or `public:<ip>`. */
  readonly scope: string;
  readonly wallet: string | null;
  readonly operation: string;
  readonly key: string;
  readonly requestHash: string;
  readonly requestId: string;
  /** Runs the handler; resolves to the exact response to send (and store). */
  readonly execute: () => Promise<IdempotentResponse>;
}

/**
 * Answers a request that carries an Idempotency-Key. The first request with a key runs and its
 * final response (status below 500, including ApiErrors such as INSUFFICIENT_LIQUID) is stored
 * as sent; a retry with the same request gets those bytes again with `Idempotent-Replayed:
 * true` (an error body keeps the first request's requestId). The same key with another request
 * is 422 IDEMPOTENCY_KEY_REUSED; while the first is still running a retry waits up to 2 s, then
 * 409 IDEMPOTENCY_IN_PROGRESS with Retry-After. A 5xx or an exception releases the key so the
 * retry runs again.
 */
export async function respondIdempotently(
  res: Response,
  parameters: RespondIdempotentlyParameters,
): Promise<void> {
  const { db, scope, wallet, operation, key, requestHash, requestId, execute } = parameters;
  const claim = await claimOrWait(db, {
    scope,
    wallet,
    operation,
    key,
    requestHash,
    lockMs: LOCK_MS,
  });
  switch (claim.kind) {
    case 'replay':
      send(res, claim, true);
      return;
    case 'mismatch':
      throw new ApiError(
        'IDEMPOTENCY_KEY_REUSED',
        `${FIELD}: this key was already used with a different request`,
        { field: FIELD },
      );
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
  let response: IdempotentResponse;
  try {
    response = await execute().catch((error: unknown) => {
      const final = errorResponse(error, requestId);
      if (!final || final.status >= 500) throw error;
      return final;
    });
  } catch (error) {
    // The original error is what matters; a failed release only delays the retry to the lease.
    await releaseIdempotencyKey(db, held).catch(() => false);
    throw error;
  }
  if (response.status >= 500) {
    await releaseIdempotencyKey(db, held);
    send(res, response, false);
    return;
  }
  const stored = await completeIdempotencyKey(db, held, response).then(
    () => null,
    (error: unknown) => ({ error }),
  );
  // The work is done: the caller gets its answer even if storing it failed (the error handler
  // still logs the failure; a retry after the lease runs the request again).
  send(res, response, false);
  if (stored) throw stored.error;
}
