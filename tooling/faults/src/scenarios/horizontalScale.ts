import { waitUntil } from '../httpClient';
import { routeOperations } from '../routeOperations';
import { assess, fundedOwners, routeLoad, subscribe } from '../scenario';
import type { Scenario } from '../scenario';
import { startStack } from '../stack';

const OPERATIONS = 40;
const CONCURRENCY = 12;
const KEEPER_JOB_WAIT_MS = 30_000;

/**
 * Two API processes behind a round-robin balancer and two keepers, on one PostgreSQL and one
 * Redis, under load: every operation has one effect, every leg settles once, every event is
 * delivered once per attempt, in order, signed.
 */
export const horizontalScaleScenario: Scenario = {
  name: '2 APIs + 2 keepers',
  run: async ({ solana }) => {
    const started = Date.now();
    const stack = await startStack({ solana, apis: 2, keepers: 2 });
    try {
      const owners = fundedOwners(solana, 6, 100_000_000n);
      const hook = await subscribe(stack, stack.api());
      const { results, submitted } = await routeLoad(stack, routeOperations(owners, OPERATIONS), {
        concurrency: CONCURRENCY,
        client: () => stack.anyApi(),
        submit: true,
        deadline: Date.now() + 90_000,
      });
      const result = await assess(stack, {
        fault: 'none: 2 APIs + 2 keepers',
        load: `${OPERATIONS} routes + signed legs, ${CONCURRENCY} clients over 2 APIs`,
        started,
        results,
        submitted,
        webhooks: [{ ...hook, exactAttempts: true }],
      });
      // BullMQ hands a job to whichever worker is waiting first, so one keeper can take every job
      // of a short burst; each must have run at least one by the time the schedules came round.
      const keeperRuns = () =>
        stack.keepers.map(
          (keeper) => (keeper.process.output().match(/"msg":"job done"/g) ?? []).length,
        );
      const idleKeeper = await waitUntil(
        async () => (keeperRuns().every((runs) => runs > 0) ? true : undefined),
        KEEPER_JOB_WAIT_MS,
        'each keeper ran a job',
      ).then(
        () => [],
        () => ['a keeper ran no job'],
      );
      return {
        ...result,
        problems: [...result.problems, ...idleKeeper],
        notes: [`jobs run per keeper: ${keeperRuns().join(' / ')}`],
      };
    } finally {
      await stack.close();
    }
  },
};
