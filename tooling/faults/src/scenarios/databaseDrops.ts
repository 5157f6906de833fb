import { Keypair } from '@solana/web3.js';
import { endDatabaseConnections } from '@yieldrouter/ledger/testing';
import { HttpClient, sleep } from '../httpClient';
import type { HttpOutcome } from '../httpClient';
import { routeOperations } from '../routeOperations';
import { assess, routeLoad } from '../scenario';
import type { Scenario } from '../scenario';
import { startStack } from '../stack';

const READERS = 16;
const DROPS = 4;
const WRITES = 30;

/** `200`, or the status, code and Retry-After of anything else (or why there was no answer). */
function describeAnswer(outcome: HttpOutcome): string {
  if (outcome.kind !== 'answered') return outcome.kind;
  if (outcome.status === 200) return '200';
  const code = (outcome.body as { code?: string } | null)?.code ?? '';
  return `${outcome.status} ${code} retry-after=${String(outcome.headers['retry-after'] ?? '-')}`;
}

/**
 * Issue 27 (4): PostgreSQL ends the API's and the keeper's connections (pg_terminate_backend,
 * as a restart or failover does) while 16 clients read positions: every answer is 200 or 503
 * DATABASE_UNAVAILABLE with Retry-After, never a 500; no process exits; writes right after go
 * through.
 */
export const databaseDropsScenario: Scenario = {
  name: 'PostgreSQL connections terminated',
  run: async ({ solana, router, log }) => {
    const started = Date.now();
    const stack = await startStack({ solana, router });
    try {
      const wallet = Keypair.generate().publicKey.toBase58();
      const reader = new HttpClient(stack.apis[0]?.port ?? 0, READERS);
      const statuses = new Map<string, number>();
      let running = true;
      const loops = Array.from({ length: READERS }, async () => {
        while (running) {
          const outcome = await reader.call(`/api/v1/wallets/${wallet}/position`, {
            headers: { 'X-API-Key': stack.ownerKey },
          });
          const code = describeAnswer(outcome);
          statuses.set(code, (statuses.get(code) ?? 0) + 1);
        }
      });
      let ended = 0;
      for (let drop = 0; drop < DROPS; drop += 1) {
        await sleep(700);
        ended += await endDatabaseConnections(stack.databaseUrl);
      }
      await sleep(700);
      running = false;
      await Promise.all(loops);
      reader.close();
      log(`  ended ${ended} connections in ${DROPS} drops`);
      const problems: string[] = [];
      for (const [code, count] of statuses) {
        if (code !== '200' && code !== '503 DATABASE_UNAVAILABLE retry-after=1') {
          problems.push(`${count} reads answered ${code}`);
        }
      }
      for (const instance of [...stack.apis, ...stack.keepers]) {
        if (instance.process.child.exitCode !== null) {
          problems.push(`${instance.process.name} exited (${instance.process.child.exitCode})`);
        }
      }
      // Writes once PostgreSQL is back: the processes recovered by themselves.
      const { results } = await routeLoad(stack, routeOperations([Keypair.generate()], WRITES), {
        concurrency: 8,
        client: () => stack.api(),
        submit: false,
        deadline: Date.now() + 30_000,
      });
      const reads = [...statuses.values()].reduce((sum, count) => sum + count, 0);
      return await assess(stack, {
        fault: 'PostgreSQL connections terminated',
        load: `${READERS} readers (${reads} reads), ${DROPS} drops; ${WRITES} routes after`,
        started,
        results,
        problems,
        notes: [
          `reads: ${[...statuses].map(([code, count]) => `${count}× ${code}`).join(', ')}`,
          `${ended} connections ended`,
        ],
      });
    } finally {
      await stack.close();
    }
  },
};
