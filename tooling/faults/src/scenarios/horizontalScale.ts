import { routeOperations } from '../routeOperations';
import { assess, fundedOwners, routeLoad, subscribe } from '../scenario';
import type { Scenario } from '../scenario';
import { startStack } from '../stack';

const OPERATIONS = 40;
const CONCURRENCY = 12;

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
      const keeperRuns = await Promise.all(
        stack.keepers.map(
          (keeper) => (keeper.process.output().match(/"msg":"job done"/g) ?? []).length,
        ),
      );
      const problems: string[] = [];
      if (keeperRuns.some((runs) => runs === 0)) problems.push('a keeper ran no job');
      const result = await assess(stack, {
        fault: 'none: 2 APIs + 2 keepers',
        load: `${OPERATIONS} routes + signed legs, ${CONCURRENCY} clients over 2 APIs`,
        started,
        results,
        submitted,
        problems,
        webhooks: [{ ...hook, exactAttempts: true }],
      });
      return { ...result, notes: [`jobs run per keeper: ${keeperRuns.join(' / ')}`] };
    } finally {
      await stack.close();
    }
  },
};
