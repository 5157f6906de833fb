import type { ClaimedDelivery, Books } from '@yieldrouter/ledger';
import { claimDueDeliveries, releaseDeliveries } from '@yieldrouter/ledger';
import type { HmacKeyCipher } from '@yieldrouter/webhooks/server';
import { recordSentAttempts, sendClaimedDelivery } from './sendClaimedDelivery';
import type { DeliveryAttemptResult, SentAttempt } from './sendClaimedDelivery';
import { DEFAULT_WEBHOOK_TIMEOUT_MS } from './webhookSender';
import type { WebhookSender } from './webhookSender';

export interface DeliverDueParameters extends WebhookSender {
  /** Subscriptions served per call (they are sent to in parallel). Default 50. */
  readonly limit?: number;
  /** Deliveries sent per subscription per call, one after another, in order. Default 20. */
  readonly perSubscription?: number;
  /** Lease on what is claimed. Default: enough for every attempt of a run to time out, + 30 s. */
  readonly leaseMs?: number;
}

export interface DeliverDueReturnType {
  readonly attempts: DeliveryAttemptResult[];
  readonly delivered: number;
  readonly retrying: number;
  readonly failed: number;
  /** Claimed but not attempted: behind a failure in its run, given back for later. */
  readonly released: number;
}

/**
 * Sends what is due. Each subscription is served in order: the oldest pending delivery first,
 * then the ones behind it, one at a time; the first that fails stops that subscription's run
 * (it waits for its retry, and the rest wait behind it), so a receiver always gets a
 * subscription's events in the order they were created, including after an outage.
 * Subscriptions are independent and sent to in parallel. A run's attempts are recorded together
 * when it ends (one statement). Safe to run concurrently and repeatedly (a keeper job): every
 * delivery is leased to one sender, so none is sent twice at once; a sender that dies mid-run
 * leaves leases that pass, and what it had not recorded is sent again (at least once:
 * receivers dedupe on the event id).
 *
 * @example
 * const result = await deliverDue(prisma, { cipher, urlPolicy, limit: 50 });
 */
export async function deliverDue(
  prisma: Books,
  parameters: DeliverDueParameters,
): Promise<DeliverDueReturnType> {
  const perSubscription = parameters.perSubscription ?? 20;
  const timeoutMs = parameters.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  const claimed = await claimDueDeliveries(prisma, {
    now: (parameters.now ?? (() => new Date()))(),
    limit: parameters.limit ?? 50,
    perSubscription,
    leaseMs: parameters.leaseMs ?? perSubscription * (timeoutMs + 1000) + 30_000,
  });
  const runs = new Map<string, ClaimedDelivery[]>();
  for (const delivery of claimed) {
    const run = runs.get(delivery.subscriptionId);
    if (run) run.push(delivery);
    else runs.set(delivery.subscriptionId, [delivery]);
  }
  const outcomes = await Promise.all(
    [...runs.values()].map((run) => sendRun(prisma, run, parameters)),
  );
  const attempts = outcomes.flatMap((outcome) => outcome.attempts);
  const count = (status: DeliveryAttemptResult['status']) =>
    attempts.filter((attempt) => attempt.status === status).length;
  return {
    attempts,
    delivered: count('delivered'),
    retrying: count('pending'),
    failed: count('failed'),
    released: outcomes.reduce((sum, outcome) => sum + outcome.released, 0),
  };
}

/** A cipher that opens each sealed key once and then answers from what it opened. */
function openingOnce(cipher: HmacKeyCipher): HmacKeyCipher {
  const opened = new Map<string, string>();
  return {
    encrypt: (hmacKey, subscriptionId) => cipher.encrypt(hmacKey, subscriptionId),
    decrypt: (sealed, subscriptionId) => {
      const key = `${subscriptionId}\n${sealed}`;
      let plain = opened.get(key);
      if (plain === undefined) {
        plain = cipher.decrypt(sealed, subscriptionId);
        opened.set(key, plain);
      }
      return plain;
    },
  };
}

/**
 * Sends a subscription's run one delivery after another and stops at the first failure; then
 * records every attempt of the run in one statement and gives back what was not tried. (If the
 * process dies mid-run, the run's leases lapse and what was sent but not recorded is sent again:
 * at least once, at most one run's worth of repeats.)
 */
async function sendRun(
  prisma: Books,
  run: readonly ClaimedDelivery[],
  sender: WebhookSender,
): Promise<{ attempts: DeliveryAttemptResult[]; released: number }> {
  const sent: SentAttempt[] = [];
  // One subscription's run: its key (and the previous one) are opened once, not per delivery.
  const runSender: WebhookSender = { ...sender, cipher: openingOnce(sender.cipher) };
  for (const delivery of run) {
    const attempt = await sendClaimedDelivery(delivery, runSender);
    sent.push(attempt);
    if (attempt.result.status !== 'delivered') break;
  }
  const attempts = await recordSentAttempts(prisma, sent);
  const rest = run.slice(sent.length);
  const released =
    rest.length === 0
      ? 0
      : await releaseDeliveries(prisma, {
          deliveryIds: rest.map((entry) => entry.id),
          claimToken: rest[0]?.claimToken ?? '',
        });
  return { attempts, released };
}
