import type http from 'node:http';
import fc from 'fast-check';
import type { CapturedLogs } from './captureLogs';
import type { FuzzRequest, Identity } from './fuzzRequest';
import { fuzzRequest } from './fuzzRequest';
import type { Operation } from './operations';
import type { OracleOptions, Violation } from './oracle';
import { checkOutcome } from './oracle';
import type { FindingLog } from './report';
import { sendRequest } from './sendRequest';
import type { ValueHints } from './validValue';

export interface FuzzTarget extends OracleOptions {
  readonly origin: { readonly port: number; readonly agent: http.Agent };
  readonly keys: Readonly<Record<string, string>>;
  readonly hints: ValueHints;
  readonly logs: CapturedLogs;
  /** Longest wait for one answer; more is a hang. */
  readonly timeoutMs: number;
  readonly findings: FindingLog;
  /** Every operation of the document: another method on a path is answered by its operation. */
  readonly operations?: readonly Operation[];
  /** Called with one line per request (FUZZ_TRACE). */
  readonly trace?: (line: string) => void;
}

/** A stable 32-bit seed per operation, so one route can be re-run alone with the same inputs. */
export function operationSeed(seed: number, operation: Operation): number {
  let hash = seed | 0;
  for (const char of `${operation.method} ${operation.path}`) {
    hash = Math.imul(hash ^ char.charCodeAt(0), 0x9e3779b1);
  }
  return hash | 0;
}

function withIdentity(
  request: FuzzRequest,
  identity: Identity,
  keys: FuzzTarget['keys'],
): FuzzRequest {
  const { 'X-API-Key': _dropped, ...headers } = request.headers;
  const key =
    identity === 'none'
      ? undefined
      : identity === 'unknown key'
        ? 'fuzz-unknown-key-0000'
        : keys[identity];
  return {
    ...request,
    identity,
    headers: key === undefined ? headers : { ...headers, 'X-API-Key': key },
  };
}

/** The message an unhandled error was logged with (what a 500 hides from the caller). */
function loggedError(lines: readonly string[]): string | undefined {
  for (const line of lines) {
    const record = JSON.parse(line) as { msg?: string; err?: { message?: string } };
    if (record.msg === 'unhandled error') return record.err?.message;
  }
  return undefined;
}

/** The gist of a logged error: Prisma's driver message where there is one, else its first line. */
function causeKind(cause: string | undefined): string | undefined {
  const driver = cause && /Message: `([^`]*)`/.exec(cause)?.[1];
  return (driver || cause?.split('\n').find((line) => line.trim() !== ''))
    ?.replace(/[0-9a-f_-]{8,}|\d+/gi, '…')
    .slice(0, 80);
}

async function probe(
  target: FuzzTarget,
  operation: Operation,
  request: FuzzRequest,
): Promise<void> {
  const started = Date.now();
  const outcome = await sendRequest(target.origin, request, target.timeoutMs);
  target.trace?.(
    `${Date.now() - started} ms ${request.method} ${request.target.slice(0, 80)} ${request.shapes.join('; ').slice(0, 200)}`,
  );
  const lines = target.logs.take();
  const violations: Violation[] = [];
  // Another method on the same path is another operation's to answer (GET and POST /discover).
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  const answering =
    target.operations?.find((o) => o.path === operation.path && o.method === method) ?? operation;
  const violation = checkOutcome(answering, request, outcome, target);
  if (violation) {
    // The logged cause tells one 500 from another; numbers and ids are dropped to group them.
    const cause = loggedError(lines);
    const kind = causeKind(cause);
    violations.push(
      cause
        ? {
            symptom: `${violation.symptom}: ${kind}`,
            detail: `${violation.detail} — logged: ${cause}`,
          }
        : violation,
    );
  }
  for (const line of lines) {
    for (const sample of target.findKeyMaterial(line)) {
      violations.push({
        symptom: `key material in the logs (${sample})`,
        detail: line.slice(0, 300),
      });
    }
  }
  for (const { symptom, detail } of violations) {
    target.findings.add({
      operation: `${operation.method} ${operation.path}`,
      symptom,
      shape: request.shapes.length > 0 ? request.shapes.join('; ') : 'well-formed request',
      detail,
      request,
    });
  }
}

/**
 * Fuzzes one operation: first a well-formed request at each of its paths as every identity (no
 * key, an unknown key, each role's key), then `numRuns` generated requests. Requests go one at
 * a time, so every log line belongs to the request before it. Findings go to `target.findings`.
 */
export async function fuzzOperation(
  target: FuzzTarget,
  operation: Operation,
  { seed, numRuns }: { readonly seed: number; readonly numRuns: number },
): Promise<void> {
  const identities: Identity[] = ['none', 'unknown key', ...Object.keys(target.keys)];
  for (const path of [operation.path, ...operation.aliases]) {
    const single = { ...operation, path, aliases: [] };
    const wellFormed = fuzzRequest(single, {
      keys: target.keys,
      hints: target.hints,
      wellFormed: true,
    });
    const [request] = fc.sample(wellFormed, { seed, numRuns: 1 });
    if (!request) continue;
    for (const identity of identities) {
      await probe(target, operation, withIdentity(request, identity, target.keys));
    }
  }
  const requests = fc.sample(fuzzRequest(operation, { keys: target.keys, hints: target.hints }), {
    seed,
    numRuns,
  });
  for (const request of requests) await probe(target, operation, request);
}
