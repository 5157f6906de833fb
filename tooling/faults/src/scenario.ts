import type { Keypair } from '@solana/web3.js';
import type { SolanaBed, SolanaRouterDeployment } from '@yieldrouter/chain-beds/solana';
import type { HttpClient } from './httpClient';
import { waitUntil } from './httpClient';
import {
  checkBooks,
  checkDeliveries,
  checkSettledOnce,
  countEffects,
  deliveriesSettled,
} from './invariants';
import { inParallel, sendRoute, submitLeg } from './routeOperations';
import type { OperationResult, RouteOperation } from './routeOperations';
import type { Stack } from './stack';
import { startTestReceiver } from '@yieldrouter/webhooks/testing';
import type { TestReceiver } from '@yieldrouter/webhooks/testing';

const EVENTS_PER_LEG = 2;

/** One row of the suite's table. */
export interface ScenarioResult {
  readonly fault: string;
  readonly load: string;
  readonly accepted: number;
  readonly effects: number;
  readonly lost: number;
  readonly doubled: number;
  /** Legs settled (once each) and webhook events delivered, where the scenario has them. */
  readonly settled: number | null;
  readonly delivered: number | null;
  readonly ms: number;
  /** Every invariant that failed; empty when the scenario passes. */
  readonly problems: readonly string[];
  /** What else was seen (answers, restarts), for the report. */
  readonly notes: readonly string[];
}

export interface ScenarioContext {
  readonly solana: SolanaBed;
  /** Our router program in `solana`: the route legs the scenarios sign run its `deposit`. */
  readonly router: SolanaRouterDeployment;
  readonly log: (line: string) => void;
}

export interface Scenario {
  readonly name: string;
  /** Set when the scenario is known to fail until other work lands (reported, still run). */
  readonly waitsFor?: string;
  run(context: ScenarioContext): Promise<ScenarioResult>;
}

/** Owners with SOL for fees and `usdcEach` micros of USDC on the local Solana. */
export function fundedOwners(solana: SolanaBed, count: number, usdcEach: bigint): Keypair[] {
  return Array.from({ length: count }, () => {
    const owner = solana.createFundedKeypair();
    solana.mintUsdc(owner.publicKey, usdcEach);
    return owner;
  });
}

/** A webhook receiver subscribed (owner key, every wallet) to settlement events. */
export async function subscribe(
  stack: Stack,
  client: HttpClient,
): Promise<{ readonly receiver: TestReceiver; readonly subscriptionId: string }> {
  const receiver = await startTestReceiver();
  const outcome = await client.call('/api/v1/svc/webhooks', {
    method: 'POST',
    headers: { 'X-API-Key': stack.ownerKey },
    body: { url: receiver.url(), eventTypes: ['deposit.settled', 'position.updated'] },
  });
  const body = (outcome.kind === 'answered' ? outcome.body : null) as {
    id?: string;
    hmacKey?: string;
  } | null;
  if (!body?.id || !body.hmacKey) {
    await receiver.close();
    throw new Error(`webhook subscription refused: ${JSON.stringify(outcome)}`);
  }
  receiver.setKeys([body.hmacKey]);
  return { receiver, subscriptionId: body.id };
}

export interface RouteLoadOptions {
  readonly concurrency: number;
  readonly client: () => HttpClient;
  /** Also sign and submit each accepted leg (the keeper then settles it). */
  readonly submit: boolean;
  readonly deadline: number;
  /** Called after each operation's answer (the scenario injects its fault from here). */
  readonly onAnswered?: (done: number) => void;
}

/** Routes (and submits) every operation with `concurrency` clients at once. */
export async function routeLoad(
  stack: Stack,
  operations: readonly RouteOperation[],
  options: RouteLoadOptions,
): Promise<{ readonly results: OperationResult[]; readonly submitted: string[] }> {
  let done = 0;
  const submitted: string[] = [];
  const results = await inParallel(operations, options.concurrency, async (operation) => {
    const result = await sendRoute(options.client, stack.ownerKey, operation, options.deadline);
    done += 1;
    options.onAnswered?.(done);
    if (options.submit && result.accepted && result.planId) {
      if (await submitLeg(options.client, result, options.deadline)) submitted.push(result.planId);
    }
    return result;
  });
  return { results, submitted };
}

export interface AssessOptions {
  readonly fault: string;
  readonly load: string;
  readonly started: number;
  readonly results: readonly OperationResult[];
  /** Plans whose leg was submitted: each must settle exactly once. */
  readonly submitted?: readonly string[];
  readonly webhooks?: ReadonlyArray<{
    readonly receiver: TestReceiver;
    readonly subscriptionId: string;
    /** One request per recorded attempt (false after a keeper crash: re-sends allowed). */
    readonly exactAttempts: boolean;
  }>;
  readonly notes?: readonly string[];
  readonly problems?: readonly string[];
  /** How long settlement and delivery may take once the load is done. */
  readonly settleTimeoutMs?: number;
}

/** Waits for the keepers to settle and deliver, then checks every invariant in SQL. */
export async function assess(stack: Stack, options: AssessOptions): Promise<ScenarioResult> {
  const problems = [...(options.problems ?? [])];
  const timeout = options.settleTimeoutMs ?? 60_000;
  const submitted = options.submitted ?? [];
  let settled: number | null = null;
  if (submitted.length > 0) {
    await waitUntil(
      async () =>
        (await checkSettledOnce(stack.db, submitted)).problems.length ? undefined : true,
      timeout,
      'every submitted leg settled',
    ).catch((error: unknown) => problems.push(String(error)));
    const check = await checkSettledOnce(stack.db, submitted);
    settled = check.settled;
    problems.push(...check.problems.slice(0, 5));
  }
  let delivered: number | null = null;
  // Each settled leg writes two events the subscriptions take: deposit.settled and
  // position.updated.
  const expected = EVENTS_PER_LEG * submitted.length;
  for (const hook of options.webhooks ?? []) {
    await waitUntil(
      async () =>
        (await deliveriesSettled(stack.db, hook.subscriptionId, expected)) ? true : undefined,
      timeout,
      'every webhook delivered',
    ).catch((error: unknown) => problems.push(String(error)));
    const check = await checkDeliveries(stack.db, hook.subscriptionId, hook.receiver, {
      exactAttempts: hook.exactAttempts,
    });
    if (check.events !== expected) {
      problems.push(`${check.events} events for the subscription, ${expected} expected`);
    }
    delivered = (delivered ?? 0) + check.events;
    problems.push(...check.problems.slice(0, 5));
    await hook.receiver.close();
  }
  problems.push(...(await checkBooks(stack.db)));
  const effects = await countEffects(stack.db, options.results);
  if (effects.lost > 0) problems.push(`${effects.lost} accepted operations have no effect`);
  if (effects.doubled > 0) problems.push(`${effects.doubled} operations doubled`);
  if (effects.phantom > 0)
    problems.push(`${effects.phantom} effects the client never saw accepted`);
  return {
    fault: options.fault,
    load: options.load,
    accepted: effects.accepted,
    effects: effects.effects,
    lost: effects.lost,
    doubled: effects.doubled,
    settled,
    delivered,
    ms: Date.now() - options.started,
    problems,
    notes: options.notes ?? [],
  };
}
