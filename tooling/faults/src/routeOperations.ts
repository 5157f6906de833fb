import { randomUUID } from 'node:crypto';
import { VersionedTransaction } from '@solana/web3.js';
import type { Keypair } from '@solana/web3.js';
import type { HttpClient, HttpOutcome } from './httpClient';
import { retryAfterMs, sleep } from './httpClient';

/** One client operation: a route of `amountMicros` into `wallet`, under its own key. */
export interface RouteOperation {
  readonly wallet: string;
  readonly owner: Keypair;
  readonly amountMicros: bigint;
  readonly idempotencyKey: string;
}

/** What the client ended with for an operation. */
export interface OperationResult {
  readonly operation: RouteOperation;
  /** A 200 with a prepared plan: the service took the operation. */
  readonly accepted: boolean;
  readonly planId: string | null;
  /** The prepared leg, for the owner to sign. */
  readonly leg: { readonly transaction: string } | null;
  /** Requests sent again: after a 5xx, a 409 in progress, or no answer. */
  readonly retries: number;
  /** Requests whose connection broke after they were sent (reset, hang-up). */
  readonly broken: number;
  readonly statuses: readonly number[];
}

/** Distinct amounts per wallet, so each ledger effect names its operation. */
export function routeOperations(owners: readonly Keypair[], count: number): RouteOperation[] {
  return Array.from({ length: count }, (_, index) => {
    const owner = owners[index % owners.length] as Keypair;
    return {
      wallet: owner.publicKey.toBase58(),
      owner,
      amountMicros: 1_000_000n + BigInt(index),
      idempotencyKey: `faults-${randomUUID()}`,
    };
  });
}

const isRetryable = (outcome: HttpOutcome) =>
  outcome.kind !== 'answered' ||
  outcome.status >= 500 ||
  (outcome.status === 409 &&
    (outcome.body as { code?: string } | null)?.code === 'IDEMPOTENCY_IN_PROGRESS');

/**
 * Sends `POST /wallets/{wallet}/route` with the operation's Idempotency-Key, as a careful client
 * does: on a refused or broken connection, a 5xx or 409 IDEMPOTENCY_IN_PROGRESS it sends the
 * same request again (after Retry-After) until an answer is final or `deadline` passes.
 * `client()` picks the instance per attempt (a load balancer).
 */
export async function sendRoute(
  client: () => HttpClient,
  ownerKey: string,
  operation: RouteOperation,
  deadline: number,
): Promise<OperationResult> {
  const statuses: number[] = [];
  let retries = 0;
  let broken = 0;
  for (;;) {
    const outcome = await client().call(`/api/v1/wallets/${operation.wallet}/route`, {
      method: 'POST',
      headers: { 'X-API-Key': ownerKey, 'Idempotency-Key': operation.idempotencyKey },
      body: { amountMicros: String(operation.amountMicros), token: 'USDC', chain: 'solana' },
    });
    if (outcome.kind === 'answered') statuses.push(outcome.status);
    if (outcome.kind === 'broken') broken += 1;
    if (!isRetryable(outcome) || Date.now() > deadline) {
      const body = (outcome.kind === 'answered' ? outcome.body : null) as {
        planId?: string;
        legs?: Array<{ transaction?: unknown }>;
      } | null;
      const accepted = outcome.kind === 'answered' && outcome.status === 200 && !!body?.planId;
      const transaction = body?.legs?.[0]?.transaction;
      return {
        operation,
        accepted,
        planId: accepted ? (body?.planId ?? null) : null,
        leg: accepted && typeof transaction === 'string' ? { transaction } : null,
        retries,
        broken,
        statuses,
      };
    }
    retries += 1;
    await sleep(Math.min(retryAfterMs(outcome), 1000));
  }
}

/** The owner's wallet: signs the prepared leg (base64 wire bytes back). */
export function signLeg(leg: { readonly transaction: string }, owner: Keypair): string {
  const tx = VersionedTransaction.deserialize(Buffer.from(leg.transaction, 'base64'));
  tx.sign([owner]);
  return Buffer.from(tx.serialize()).toString('base64');
}

/**
 * Hands the signed leg to `POST /svc/strategies/deposit/execute` (broadcast on): the API sends
 * it to the chain and the leg becomes `submitted`; the keeper settles it. Retried like a route.
 * True when the leg is submitted (a replay counts).
 */
export async function submitLeg(
  client: () => HttpClient,
  result: OperationResult,
  deadline: number,
): Promise<boolean> {
  if (!result.planId || !result.leg) return false;
  const signedTransaction = signLeg(result.leg, result.operation.owner);
  for (;;) {
    const outcome = await client().call('/api/v1/svc/strategies/deposit/execute', {
      method: 'POST',
      body: { planId: result.planId, legIndex: 0, signedTransaction },
    });
    if (outcome.kind === 'answered' && outcome.status === 200) return true;
    if (!isRetryable(outcome) || Date.now() > deadline) return false;
    await sleep(Math.min(retryAfterMs(outcome), 1000));
  }
}

/** Runs `work` over `items` with at most `concurrency` at once, in order of start. */
export async function inParallel<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      for (;;) {
        const index = next;
        next += 1;
        if (index >= items.length) return;
        results[index] = await work(items[index] as T, index);
      }
    }),
  );
  return results;
}
