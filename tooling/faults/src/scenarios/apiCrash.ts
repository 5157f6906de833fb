import { Keypair } from '@solana/web3.js';
import { sleep } from '../httpClient';
import { inParallel, routeOperations, sendRoute } from '../routeOperations';
import type { OperationResult } from '../routeOperations';
import { assess } from '../scenario';
import type { Scenario } from '../scenario';
import { CLAIM_WINDOW_MS, startStack } from '../stack';

const OPERATIONS = 60;
const CONCURRENCY = 16;

/**
 * Issue 27 (1): 60 routes with distinct Idempotency-Keys; kill -9 the API once a third are
 * answered; start it again; after the claim window, resend all 60 with the same keys and
 * bodies. Every operation must have exactly one effect: no loss, nothing doubled.
 */
export const apiCrashScenario: Scenario = {
  name: 'kill -9 API mid-writes, retry same keys',
  waitsFor: 'the exactly-once branch',
  run: async ({ solana, router, log }) => {
    const started = Date.now();
    const stack = await startStack({ solana, router });
    try {
      const owners = Array.from({ length: 4 }, () => Keypair.generate());
      const operations = routeOperations(owners, OPERATIONS);
      const api = () => stack.api(0);
      let answered = 0;
      let killed = false;
      let killedAt = 0;
      let answeredAtKill = 0;
      // First pass: a client that does not retry; the API dies under it.
      await inParallel(operations, CONCURRENCY, async (operation) => {
        if (killed) return null;
        const result = await sendRoute(api, stack.ownerKey, operation, 0);
        answered += 1;
        if (!killed && answered >= OPERATIONS / 3) {
          killed = true;
          killedAt = Date.now();
          answeredAtKill = answered;
          stack.apis[0]?.process.kill('SIGKILL');
          log(`  killed the API (kill -9) after ${answeredAtKill} answers`);
        }
        return result;
      });
      await stack.apis[0]?.process.exited;
      await stack.startApi(0);
      await sleep(Math.max(0, killedAt + CLAIM_WINDOW_MS + 1000 - Date.now()));
      // Second pass: every operation again, same keys and bodies, retried until final.
      const deadline = Date.now() + 60_000;
      const results: OperationResult[] = await inParallel(operations, CONCURRENCY, (operation) =>
        sendRoute(api, stack.ownerKey, operation, deadline),
      );
      return await assess(stack, {
        fault: 'kill -9 API mid-writes, retry same keys',
        load: `${OPERATIONS} routes, ${CONCURRENCY} clients`,
        started,
        results,
        notes: [`killed after ${answeredAtKill} answers, ${answered} in all before the restart`],
      });
    } finally {
      await stack.close();
    }
  },
};
