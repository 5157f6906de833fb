// Ledger part of `pnpm bench` (BENCH_ONLY=ledger):
// 1. settlements per second at 16 concurrent clients (settleLeg: receipt read through an
//    in-memory chain, leg lock, journal entry with balance locks, leg update, outbox events),
//    against pgbench TPC-B at 16 clients on the same server, measured in the same run;
// 2. position reads: a batch of 50 wallets against one wallet (latency ratio, one query each).
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { VenueConfig } from '@yieldrouter/engine';
import { prepareRoute, readPositions, settleLeg } from '@yieldrouter/engine';
import { fakeBase58, fakeChain } from '@yieldrouter/engine/src/wallets/testing/fakeChain';
import { createDatabase } from '@yieldrouter/ledger';
import { pool, withDatabase } from './benchDatabase';

const CLIENTS = 16;
const SETTLEMENTS = Number(process.env['BENCH_SETTLEMENTS'] ?? 3000);
const PGBENCH_SECONDS = Number(process.env['BENCH_PGBENCH_SECONDS'] ?? 8);
const venues: VenueConfig = { ids: {}, apyPools: {}, apyMaxAgeMs: 3_600_000, apyMeanMinSamples: 3 };

const line = (text: string) => process.stdout.write(`${text}\n`);

/** pgbench TPC-B (scale 16, so 16 clients do not all fight over one branch row), tps. */
function pgbenchTps(url: string): number {
  const target = new URL(url);
  const args = [
    '-h',
    target.hostname,
    '-p',
    target.port || '5432',
    '-U',
    target.username || 'postgres',
  ];
  const db = target.pathname.slice(1);
  execFileSync('pgbench', [...args, '-i', '-q', '-s', '16', db], { stdio: 'ignore' });
  const out = execFileSync(
    'pgbench',
    [...args, '-c', String(CLIENTS), '-j', '2', '-T', String(PGBENCH_SECONDS), '-n', db],
    { encoding: 'utf8' },
  );
  const match = /tps = ([0-9.]+)/.exec(out);
  if (!match?.[1]) throw new Error(`pgbench printed no tps:\n${out}`);
  return Number(match[1]);
}

async function median(runs: number, work: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

export async function runLedgerBench(): Promise<void> {
  await withDatabase(async (url) => {
    const database = await createDatabase({ databaseUrl: url, poolSize: CLIENTS + 4 });
    try {
      const chain = fakeChain();
      const context = {
        db: database.prisma,
        settlements: database.settlements,
        adapters: chain.adapters,
        venues,
      };
      // 64 wallets, so settlements contend the way a busy service does (several per wallet).
      const wallets = Array.from({ length: 64 }, () => fakeBase58());
      line(`ledger: preparing ${SETTLEMENTS} route legs…`);
      const legs: { planId: string; txId: string }[] = [];
      const prepare = Array.from({ length: SETTLEMENTS }, (_, index) => async () => {
        const plan = await prepareRoute({
          ...context,
          opportunities: [],
          autoYieldVenueId: null,
          address: wallets[index % wallets.length] as string,
          input: { amountMicros: 1_000_000n, token: 'USDC', stake: false, chain: 'solana' },
          now: new Date(),
        });
        const planId = plan.planId as string;
        legs.push({ planId, txId: chain.execute({ planId, amountMicros: 1_000_000n }) });
      });
      await pool(prepare, CLIENTS);
      const seconds = await pool(
        legs.map(
          ({ planId, txId }) =>
            () =>
              settleLeg({ ...context, planId, legIndex: 0, txId, now: new Date() }),
        ),
        CLIENTS,
      );
      const settlements = SETTLEMENTS / seconds;
      const tps = pgbenchTps(url);
      line(
        `ledger: settlements/s at ${CLIENTS} clients ${settlements.toFixed(0)} vs pgbench TPC-B ` +
          `${tps.toFixed(0)} tps → ratio ${(settlements / tps).toFixed(3)} (target >= 0.5)`,
      );

      const now = new Date();
      await readPositions(database.sql, chain.adapters, wallets, now);
      const one = await median(200, () =>
        readPositions(database.sql, chain.adapters, [wallets[0] as string], now),
      );
      const fifty = await median(200, () =>
        readPositions(database.sql, chain.adapters, wallets.slice(0, 50), now),
      );
      line(
        `ledger: position batch of 50 ${fifty.toFixed(2)} ms vs one ${one.toFixed(2)} ms → ` +
          `ratio ${(fifty / one).toFixed(2)} (target <= 2)`,
      );
    } finally {
      await database.close();
    }
  });
}
