import { waitUntil } from '../httpClient';
import { routeOperations } from '../routeOperations';
import { assess, fundedOwners, routeLoad, subscribe } from '../scenario';
import type { Scenario } from '../scenario';
import { startStack } from '../stack';
import type { TestReceiverMode } from '@yieldrouter/webhooks/testing';

const OPERATIONS = 20;
const MODES: readonly TestReceiverMode[] = ['refuse', 500, 'hang'];

/**
 * Three subscribers that misbehave (one refuses connections, one answers 500, one never answers)
 * and one that is fine, while legs settle. Once the three recover, each gets its backlog in
 * order, signed, one request per recorded attempt; the healthy one was never held up.
 */
export const webhookReceiversScenario: Scenario = {
  name: 'webhook receiver refuses / 500s / hangs',
  run: async ({ solana, router, log }) => {
    const started = Date.now();
    const stack = await startStack({ solana, router });
    try {
      const owners = fundedOwners(solana, 2, 100_000_000n);
      const healthy = await subscribe(stack, stack.api());
      const faulty = await Promise.all(MODES.map(() => subscribe(stack, stack.api())));
      await Promise.all(faulty.map((hook, index) => hook.receiver.setMode(MODES[index] ?? 200)));
      const { results, submitted } = await routeLoad(stack, routeOperations(owners, OPERATIONS), {
        concurrency: 4,
        client: () => stack.api(),
        submit: true,
        deadline: Date.now() + 60_000,
      });
      // Every faulty subscriber has had a failed attempt recorded; the healthy one is served.
      await waitUntil(
        async () => {
          const rows = await stack.db.$queryRawUnsafe<Array<{ failing: number }>>(
            `SELECT count(DISTINCT d.subscription_id)::int AS failing
               FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
              WHERE d.subscription_id = ANY($1::text[])
                AND (a.http_status IS NULL OR a.http_status >= 300)`,
            faulty.map((hook) => hook.subscriptionId),
          );
          return (rows[0]?.failing ?? 0) === MODES.length ? true : undefined;
        },
        30_000,
        'a failed attempt at each faulty subscriber',
      );
      log('  every faulty receiver failed an attempt; they recover now');
      await Promise.all(faulty.map((hook) => hook.receiver.setMode(200)));
      return await assess(stack, {
        fault: 'webhook receiver refuses / 500s / hangs',
        load: `${OPERATIONS} routes + signed legs, 4 subscribers`,
        started,
        results,
        submitted,
        webhooks: [healthy, ...faulty].map((hook) => ({ ...hook, exactAttempts: true })),
        notes: ['retries after 10 s (±20 %), backlog in order'],
      });
    } finally {
      await stack.close();
    }
  },
};
