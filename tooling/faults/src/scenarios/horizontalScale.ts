import { waitUntil } from '../httpClient';
import { routeOperations } from '../routeOperations';
import { assess, fundedOwners, routeLoad, subscribe } from '../scenario';
import type { Scenario } from '../scenario';
import { startStack } from '../stack';
import type { Instance } from '../stack';

const OPERATIONS = 40;
const CONCURRENCY = 12;
const KEEPER_JOB_WAIT_MS = 20_000;

/** Job runs finished by a keeper process, summed over jobs and outcomes, from its /metrics. */
async function jobRuns(keeper: Instance): Promise<number> {
  if (keeper.process.child.exitCode !== null || keeper.process.child.signalCode !== null) return 0;
  const outcome = await keeper.client.call('/metrics', { timeoutMs: 5_000 });
  if (outcome.kind !== 'answered' || outcome.status !== 200 || typeof outcome.body !== 'string')
    return 0;
  let runs = 0;
  for (const match of outcome.body.matchAll(/^svc_keeper_job_runs_total\{[^}]*\} (\d+)$/gm))
    runs += Number(match[1]);
  return runs;
}

/**
 * Two API processes behind a round-robin balancer and two keepers, on one PostgreSQL and one
 * Redis, under load: every operation has one effect, every leg settles once, every event is
 * delivered once per attempt, in order, signed.
 */
export const horizontalScaleScenario: Scenario = {
  name: '2 APIs + 2 keepers',
  run: async ({ solana, router }) => {
    const started = Date.now();
    const stack = await startStack({ solana, router, apis: 2, keepers: 2 });
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
      // Job runs per keeper from its own /metrics (its logs are buffered, so counting log lines
      // undercounts). BullMQ hands a job to whichever worker asks first, so one keeper can take
      // every job of a while; each must have run one by the time the schedules came round, or
      // else take the work over once the busy one is stopped (SIGTERM).
      const keeperRuns = () => Promise.all(stack.keepers.map((keeper) => jobRuns(keeper)));
      const everyKeeperRan = () =>
        waitUntil(
          async () => ((await keeperRuns()).every((runs) => runs > 0) ? true : undefined),
          KEEPER_JOB_WAIT_MS,
          'each keeper ran a job',
        ).then(
          () => true,
          () => false,
        );
      const notes: string[] = [];
      const problems: string[] = [];
      if (!(await everyKeeperRan())) {
        const before = await keeperRuns();
        notes.push(`jobs run per keeper while both ran: ${before.join(' / ')}`);
        const idle = before.findIndex((runs) => runs === 0);
        const busy = stack.keepers.filter((_, index) => index !== idle);
        for (const keeper of busy) keeper.process.kill('SIGTERM');
        await Promise.all(busy.map((keeper) => keeper.process.exited));
        const tookOver = await waitUntil(
          async () => ((await keeperRuns())[idle] ?? 0) > 0 || undefined,
          KEEPER_JOB_WAIT_MS,
          'the idle keeper took the work over',
        ).then(
          () => true,
          () => false,
        );
        if (tookOver) notes.push(`keeper ${idle + 1} took the work over after the other's SIGTERM`);
        else problems.push(`keeper ${idle + 1} ran no job, even alone`);
      } else {
        notes.push(`jobs run per keeper: ${(await keeperRuns()).join(' / ')}`);
      }
      return {
        ...result,
        problems: [...result.problems, ...problems],
        notes,
      };
    } finally {
      await stack.close();
    }
  },
};
