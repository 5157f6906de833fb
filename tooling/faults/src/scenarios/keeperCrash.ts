import { waitUntil } from '../httpClient';
import { routeOperations } from '../routeOperations';
import { assess, fundedOwners, routeLoad, subscribe } from '../scenario';
import type { Scenario } from '../scenario';
import { startStack } from '../stack';

const OPERATIONS = 24;
const CONCURRENCY = 8;

/**
 * kill -9 of the keeper while it delivers webhooks (a request sent, its answer not yet in) and
 * settles legs; a new keeper takes over once the job locks lapse. Every leg settles once;
 * every event is delivered, in order, signed; what the dead keeper sent but had not recorded is
 * sent again (at least once), counted apart.
 */
export const keeperCrashScenario: Scenario = {
  name: 'kill -9 keeper mid-delivery',
  run: async ({ solana, router, log }) => {
    const started = Date.now();
    // A delivery run's lease is per-subscription × (timeout + 1 s) + 30 s: a small run keeps
    // the wait for a dead keeper's leases near half a minute.
    const stack = await startStack({
      solana,
      router,
      env: { SVC_KEEPER_WEBHOOK_PER_SUBSCRIPTION: '2' },
    });
    try {
      const owners = fundedOwners(solana, 4, 100_000_000n);
      const hook = await subscribe(stack, stack.api());
      // Two events per settled leg: once a quarter of them reached the receiver, it stops
      // answering (decided as each arrives, so a fast run cannot deliver everything first), and
      // the keeper is killed while it waits for the answer.
      hook.receiver.hangFrom(OPERATIONS / 2);
      const { results, submitted } = await routeLoad(stack, routeOperations(owners, OPERATIONS), {
        concurrency: CONCURRENCY,
        client: () => stack.api(),
        submit: true,
        deadline: Date.now() + 90_000,
      });
      await waitUntil(
        async () => (hook.receiver.deliveries.length > OPERATIONS / 2 ? true : undefined),
        60_000,
        'a delivery in flight',
      );
      const received = hook.receiver.deliveries.length;
      stack.keepers[0]?.process.kill('SIGKILL');
      await stack.keepers[0]?.process.exited;
      log(`  killed the keeper (kill -9) after ${received} deliveries; starting another`);
      await hook.receiver.setMode(200);
      await stack.startKeeper(0);
      const result = await assess(stack, {
        fault: 'kill -9 keeper mid-delivery',
        load: `${OPERATIONS} routes + signed legs, 1 subscriber`,
        started,
        results,
        submitted,
        webhooks: [{ ...hook, exactAttempts: false }],
        settleTimeoutMs: 120_000,
      });
      const resent = hook.receiver.deliveries.length - (result.delivered ?? 0);
      return {
        ...result,
        notes: [
          `killed after ${received} deliveries`,
          `${resent} sent again after the kill (at least once; its leases lapsed first)`,
        ],
      };
    } finally {
      await stack.close();
    }
  },
};
