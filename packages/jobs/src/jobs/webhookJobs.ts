import { deliverDue, relayOutbox } from '@yieldrouter/engine';
import { TriggeredJobData, defineJob } from './defineJob';
import type { JobCounts } from './defineJob';
import type { KeeperJobDeps } from './keeperJobDeps';

/** Events relayed per statement; a backlog is relayed in rounds of this many. */
const RELAY_PAGE = 500;

/**
 * Turns committed outbox events into deliveries, one per matching subscription, in outbox
 * order, until the outbox is drained. Concurrent runs are harmless (the relay is serialized in
 * the database); a run killed midway loses nothing (an event is marked relayed in the statement
 * that creates its deliveries).
 */
export async function runOutboxRelay(deps: KeeperJobDeps): Promise<JobCounts> {
  const counts = { events: 0, deliveries: 0 };
  for (;;) {
    const relayed = await relayOutbox(deps.db, { limit: RELAY_PAGE, now: deps.now() });
    counts.events += relayed.events;
    counts.deliveries += relayed.deliveryIds.length;
    if (relayed.events < RELAY_PAGE) return counts;
  }
}

/**
 * Sends what is due, round after round, until nothing is due or the run has used its time
 * budget (the next scheduled run goes on). Every delivery is leased to one sender and recorded
 * with each attempt; a run killed midway leaves leases that lapse, so what it had not recorded
 * is sent again (at least once: receivers dedupe on the event id).
 */
export async function runWebhookDelivery(deps: KeeperJobDeps): Promise<JobCounts> {
  const counts = { delivered: 0, retrying: 0, failed: 0, rounds: 0 };
  const deadline = Date.now() + deps.webhooks.runBudgetMs;
  for (;;) {
    const round = await deliverDue(deps.db, {
      ...deps.webhooks.sender,
      limit: deps.webhooks.batchSize,
      perSubscription: deps.webhooks.perSubscription,
      now: deps.now,
    });
    counts.rounds += 1;
    counts.delivered += round.delivered;
    counts.retrying += round.retrying;
    counts.failed += round.failed;
    if (round.attempts.length === 0 || Date.now() >= deadline) return counts;
  }
}

export const outboxRelayJob = defineJob({
  summary: 'Relays committed outbox events into webhook deliveries, in outbox order.',
  data: TriggeredJobData,
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 1_000 },
  concurrency: 1,
  everyMs: 1_000,
  process: async (_data, deps) => runOutboxRelay(deps),
});

export const webhookDeliveryJob = defineJob({
  summary: 'Sends due webhook deliveries, signed, in order per subscription, with retries.',
  data: TriggeredJobData,
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 1_000 },
  concurrency: 1,
  everyMs: 1_000,
  process: async (_data, deps) => runWebhookDelivery(deps),
});
