import { routeOperations } from '../routeOperations';
import { assess, fundedOwners, routeLoad, subscribe } from '../scenario';
import type { Scenario } from '../scenario';
import { startStack } from '../stack';

const OPERATIONS = 40;
const CONCURRENCY = 8;

/**
 * Issue 27 (3): Redis (no persistence) restarted under load. The API goes on (rate limits per
 * process meanwhile); the keeper reconnects, re-creates its job schedules, and every submitted
 * leg settles and every event is delivered without restarting anything.
 */
export const redisRestartScenario: Scenario = {
  name: 'Redis restarted empty',
  run: async ({ solana, router, log }) => {
    const started = Date.now();
    const stack = await startStack({ solana, router });
    try {
      const owners = fundedOwners(solana, 4, 100_000_000n);
      const hook = await subscribe(stack, stack.api());
      let restarted: Promise<void> | undefined;
      const { results, submitted } = await routeLoad(stack, routeOperations(owners, OPERATIONS), {
        concurrency: CONCURRENCY,
        client: () => stack.api(),
        submit: true,
        deadline: Date.now() + 90_000,
        onAnswered: (done) => {
          if (done === OPERATIONS / 3 && !restarted) {
            log('  restarting Redis (empty)');
            restarted = stack.redis.restartEmpty({ downMs: 1000 });
          }
        },
      });
      await restarted;
      const result = await assess(stack, {
        fault: 'Redis restarted empty',
        load: `${OPERATIONS} routes + signed legs, ${CONCURRENCY} clients`,
        started,
        results,
        submitted,
        webhooks: [{ ...hook, exactAttempts: true }],
      });
      const keeper = stack.keepers[0];
      const health = keeper ? await keeper.client.call('/health') : undefined;
      const status = health?.kind === 'answered' ? health.status : 'none';
      // A scheduler whose job was running when Redis went away may be put back by BullMQ as
      // that job finishes; the others are re-created by the keeper.
      const recreated = /"jobs":\[([^\]]*)\][^\n]*job schedules were missing/.exec(
        keeper?.process.output() ?? '',
      )?.[1];
      const problems = [...result.problems];
      if (status !== 200) problems.push(`keeper /health answered ${status} after healing`);
      return {
        ...result,
        problems,
        notes: [`keeper re-created schedules: ${recreated ?? 'none'}; /health ${status} after`],
      };
    } finally {
      await stack.close();
    }
  },
};
