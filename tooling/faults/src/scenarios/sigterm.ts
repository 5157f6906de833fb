import { Keypair } from '@solana/web3.js';
import { inParallel, routeOperations, sendRoute } from '../routeOperations';
import type { OperationResult } from '../routeOperations';
import { assess } from '../scenario';
import type { Scenario } from '../scenario';
import { startStack } from '../stack';

const CLIENTS = 16;
const OPERATIONS = 160;
const DRAIN_TIMEOUT_MS = 10_000;

/**
 * Issue 27 (5): SIGTERM to the API while 16 keep-alive clients keep writing. The API answers
 * what it has (Connection: close), refuses new connections, exits 0 within the drain timeout,
 * and is started again (a rolling restart); the clients retry refused requests with the same
 * Idempotency-Key. No request is reset, every accepted write has exactly one effect.
 */
export const sigtermScenario: Scenario = {
  name: 'SIGTERM under keep-alive load',
  run: async ({ solana, router, log }) => {
    const started = Date.now();
    const stack = await startStack({ solana, router });
    try {
      const operations = routeOperations(
        Array.from({ length: 4 }, () => Keypair.generate()),
        OPERATIONS,
      );
      const api = stack.apis[0];
      if (!api) throw new Error('no API');
      let signalled = 0;
      let drained: Promise<number | string> | undefined;
      const results: OperationResult[] = await inParallel(
        operations,
        CLIENTS,
        async (operation, index) => {
          if (index === CLIENTS * 4 && !drained) {
            signalled = Date.now();
            log('  SIGTERM to the API');
            api.process.kill('SIGTERM');
            drained = api.process.exited.then(async (code) => {
              log(`  API exited ${code} after ${Date.now() - signalled} ms; starting it again`);
              await stack.startApi(0);
              return code;
            });
          }
          return sendRoute(() => stack.api(), stack.ownerKey, operation, Date.now() + 60_000);
        },
      );
      const code = await drained;
      const drainMs = api.process.output().match(/"ms":(\d+)[^\n]*"msg":"stopped"/)?.[1];
      const problems: string[] = [];
      if (code !== 0) problems.push(`the API exited ${String(code)} on SIGTERM`);
      if (!drainMs) problems.push('the API did not log "stopped"');
      if (Number(drainMs) > DRAIN_TIMEOUT_MS) problems.push(`drain took ${drainMs} ms`);
      // A reset is a request the API took and never answered: the client cannot know its fate.
      const resets = results.reduce((sum, result) => sum + result.broken, 0);
      if (resets > 0) problems.push(`${resets} requests reset`);
      const refusedAfter = results.filter((result) => result.retries > 0).length;
      return await assess(stack, {
        fault: 'SIGTERM under keep-alive load',
        load: `${OPERATIONS} routes, ${CLIENTS} keep-alive clients`,
        started,
        results,
        problems,
        notes: [
          `exit ${String(code)}, drained in ${drainMs ?? '?'} ms, ${resets} resets`,
          `${refusedAfter} writes refused while it restarted, then retried`,
        ],
      });
    } finally {
      await stack.close();
    }
  },
};
