// Ledger part of `pnpm bench` (BENCH_ONLY=ledger):
// 1. settlements per second at 16 concurrent clients (settleLeg: leg read, receipt read through
//    an in-memory chain, outcome recorded — leg claimed, journal entry under the balance locks,
//    outbox events — with concurrent settlements grouped as in production), against pgbench
//    TPC-B at 16 clients on the same server; rounds alternate between the two so that drift on
//    a shared machine hits both alike, and the median of the per-round ratios is the result;
// 2. position reads: a batch of 50 wallets against one wallet (latency ratio, one query each,
//    samples interleaved).
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import type { VenueConfig } from '@yieldrouter/engine';
import { prepareRoute, readPositions, settleLeg } from '@yieldrouter/engine';
import { fakeBase58, fakeChain } from '@yieldrouter/engine/src/wallet/testing/fakeChain';
import { createDatabase, verifyLedger } from '@yieldrouter/ledger';
import type { Books } from '@yieldrouter/ledger';
import { pool, withDatabase } from './benchDatabase';
import { processTreeCpuMicros } from './processCpu';

const CLIENTS = 16;
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const SETTLEMENTS_PER_ROUND = Number(process.env['BENCH_SETTLEMENTS'] ?? 1500);
const PGBENCH_SECONDS = Number(process.env['BENCH_PGBENCH_SECONDS'] ?? 3);
const POSITION_SAMPLES = 300;
const venues: VenueConfig = { ids: {}, apyPools: {}, apyMaxAgeMs: 3_600_000, apyMeanMinSamples: 3 };

const line = (text: string) => process.stdout.write(`${text}\n`);

const middle = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

/** pgbench against the run's database: `init` once (TPC-B tables, scale 16), then runs. */
function pgbench(url: string) {
  const target = new URL(url);
  const args = ['-h', target.hostname, '-p', target.port || '5432'];
  args.push('-U', target.username || 'postgres');
  const db = target.pathname.slice(1);
  // Scale 16, so 16 clients do not all fight over one branch row.
  execFileSync('pgbench', [...args, '-i', '-q', '-s', '16', db], { stdio: 'ignore' });
  return (): number => {
    const out = execFileSync(
      'pgbench',
      [...args, '-c', String(CLIENTS), '-j', '2', '-T', String(PGBENCH_SECONDS), '-n', db],
      { encoding: 'utf8' },
    );
    const match = /tps = ([0-9.]+)/.exec(out);
    if (!match?.[1]) throw new Error(`pgbench printed no tps:\n${out}`);
    return Number(match[1]);
  };
}

/**
 * CPU microseconds used so far by this process and by each of the database's other client
 * backends (the doc's measure, docs/benchmarks/2026-12-06-hot-paths-2.md): per unit of work it
 * moves much less with a shared machine's load than the wall time does.
 */
async function cpuReading(
  monitor: Client,
): Promise<{ node: number; backends: Map<number, number> }> {
  const { rows } = await monitor.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity
     WHERE datname = current_database() AND backend_type = 'client backend'
       AND pid <> pg_backend_pid()`,
  );
  const backends = new Map<number, number>();
  for (const { pid } of rows) backends.set(pid, processTreeCpuMicros(pid) ?? 0);
  return { node: processTreeCpuMicros(process.pid) ?? 0, backends };
}

/** Milliseconds of CPU per settlement between two readings: [node, backends]. */
function cpuPerSettlement(
  before: Awaited<ReturnType<typeof cpuReading>>,
  after: Awaited<ReturnType<typeof cpuReading>>,
  settlements: number,
): [number, number] {
  let backends = 0;
  for (const [pid, micros] of after.backends) backends += micros - (before.backends.get(pid) ?? 0);
  return [(after.node - before.node) / settlements / 1000, backends / settlements / 1000];
}

type FakeChain = ReturnType<typeof fakeChain>;
/** What settlements run against: the books and an in-memory chain's adapters. */
export interface SettlementContext {
  readonly db: Books;
  readonly adapters: FakeChain['adapters'];
  readonly venues: VenueConfig;
}

/** 64 wallets, so settlements contend the way a busy service does (several per wallet). */
export const benchWallets = () => Array.from({ length: 64 }, () => fakeBase58());

/** `total` routes of 1 USDC on Solana over `wallets`, each with its executed transaction. */
export async function prepareRouteLegs(
  context: SettlementContext,
  chain: FakeChain,
  wallets: readonly string[],
  total: number,
): Promise<{ planId: string; txId: string }[]> {
  const legs: { planId: string; txId: string }[] = [];
  const prepare = Array.from({ length: total }, (_, index) => async () => {
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
  return legs;
}

/** Settles `legs` from their receipts, `CLIENTS` at a time; returns settlements per second. */
export async function settlementsPerSecond(
  context: SettlementContext,
  legs: readonly { planId: string; txId: string }[],
): Promise<number> {
  const seconds = await pool(
    legs.map(
      ({ planId, txId }) =>
        () =>
          settleLeg({ ...context, planId, legIndex: 0, txId, now: new Date() }),
    ),
    CLIENTS,
  );
  return legs.length / seconds;
}

export async function runLedgerBench(): Promise<void> {
  await withDatabase(async (url) => {
    const database = await createDatabase({ databaseUrl: url, poolSize: CLIENTS + 4 });
    try {
      const chain = fakeChain();
      const context = {
        db: database,
        adapters: chain.adapters,
        venues,
      };
      const wallets = benchWallets();
      const total = ROUNDS * SETTLEMENTS_PER_ROUND;
      line(`ledger: preparing ${total} route legs…`);
      const legs = await prepareRouteLegs(context, chain, wallets, total);
      const tpcb = pgbench(url);
      const ratios: number[] = [];
      const rates: number[] = [];
      const tpsList: number[] = [];
      const monitor = new Client({ connectionString: url });
      await monitor.connect();
      for (let round = 0; round < ROUNDS; round += 1) {
        const batch = legs.slice(
          round * SETTLEMENTS_PER_ROUND,
          (round + 1) * SETTLEMENTS_PER_ROUND,
        );
        const before = await cpuReading(monitor);
        const rate = await settlementsPerSecond(context, batch);
        const [node, backends] = cpuPerSettlement(before, await cpuReading(monitor), batch.length);
        line(
          `ledger: round ${round + 1}: ${rate.toFixed(0)} settlements/s, CPU per settlement ` +
            `${(node + backends).toFixed(2)} ms (node ${node.toFixed(2)} + backends ` +
            `${backends.toFixed(2)}); load average ${loadavg()[0]?.toFixed(1)}`,
        );
        const tps = tpcb();
        rates.push(rate);
        tpsList.push(tps);
        ratios.push(rate / tps);
      }
      await monitor.end();
      const report = await verifyLedger(database);
      if (!report.ok) throw new Error(`the ledger does not verify: ${JSON.stringify(report)}`);
      line(
        `ledger: settlements/s at ${CLIENTS} clients ${middle(rates).toFixed(0)} vs pgbench ` +
          `TPC-B ${middle(tpsList).toFixed(0)} tps → ratio ${middle(ratios).toFixed(3)} ` +
          `(median of ${ROUNDS} alternating rounds, range ${Math.min(...ratios).toFixed(3)}–` +
          `${Math.max(...ratios).toFixed(3)}; target >= 0.8; ledger verified)`,
      );

      const now = new Date();
      const one = [wallets[0] as string];
      const fifty = wallets.slice(0, 50);
      const time = async (batch: readonly string[]) => {
        const started = performance.now();
        await readPositions(database.balances, chain.adapters, batch, now);
        return performance.now() - started;
      };
      for (let warm = 0; warm < 50; warm += 1) await time(fifty);
      const ones: number[] = [];
      const fifties: number[] = [];
      for (let sample = 0; sample < POSITION_SAMPLES; sample += 1) {
        ones.push(await time(one));
        fifties.push(await time(fifty));
      }
      const [oneMs, fiftyMs] = [middle(ones), middle(fifties)];
      line(
        `ledger: position batch of 50 ${fiftyMs.toFixed(2)} ms vs one ${oneMs.toFixed(2)} ms → ` +
          `ratio ${(fiftyMs / oneMs).toFixed(2)} (medians of ${POSITION_SAMPLES} interleaved ` +
          'samples; target <= 2)',
      );
    } finally {
      await database.close();
    }
  });
}
