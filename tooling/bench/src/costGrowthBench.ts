// The ledger's cost growth (issue #45): settlements per second against a ledger filled to
// BENCH_GROWTH_POSTINGS postings (default 10 000 000) against an empty one, on the same server,
// rounds alternating between the two databases so drift on a shared machine hits both alike.
//
//   BENCH_ONLY=growth BENCH_GROWTH_POSTINGS=10000000 npx -y pnpm@10 bench
//
// The fill is SQL, not row by row: each statement inserts BENCH_GROWTH_CHUNK postings (default
// 1 000 000) from generate_series — entries of two postings, Solana's external account to one of
// 10 000 wallets' liquid — through the ledger's own triggers and deferred checks (balances kept,
// every entry balanced), committed chunk by chunk; the filled ledger is then vacuumed and
// analysed as autovacuum would have it, and verified (`verifyLedger`) after the settlements.
import { performance } from 'node:perf_hooks';
import { fakeChain } from '@yieldrouter/engine/src/wallet/testing/fakeChain';
import { createDatabase, verifyLedger } from '@yieldrouter/ledger';
import type { Books } from '@yieldrouter/ledger';
import { withDatabase } from './benchDatabase';
import type { SettlementContext } from './ledgerBench';
import { benchWallets, prepareRouteLegs, settlementsPerSecond } from './ledgerBench';

const POSTINGS = Number(process.env['BENCH_GROWTH_POSTINGS'] ?? 10_000_000);
const CHUNK = Number(process.env['BENCH_GROWTH_CHUNK'] ?? 1_000_000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const SETTLEMENTS_PER_ROUND = Number(process.env['BENCH_SETTLEMENTS'] ?? 1000);
const FILL_WALLETS = 10_000;

const line = (text: string) => process.stdout.write(`${text}\n`);
const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** Fills `db` to `postings` postings (whole entries of two) with generate_series. */
async function fill(db: Books, postings: number): Promise<void> {
  const [external] = await db.$queryRaw<{ id: bigint }[]>`
    INSERT INTO ledger_accounts (kind, wallet, chain, bucket)
    VALUES ('system', NULL, 'solana', 'external')
    ON CONFLICT (wallet, chain, bucket) DO UPDATE SET bucket = EXCLUDED.bucket
    RETURNING id`;
  const accounts = await db.$queryRaw<{ id: bigint }[]>`
    INSERT INTO ledger_accounts (kind, wallet, chain, bucket)
    SELECT 'wallet', 'Fill' || lpad(g::text, 40, '0'), 'solana', 'liquid'
    FROM generate_series(1, ${FILL_WALLETS}::int) AS g
    RETURNING id`;
  const ids = accounts.map(({ id }) => id.toString());
  for (let done = 0; done < postings; done += CHUNK) {
    const entries = Math.floor(Math.min(CHUNK, postings - done) / 2);
    const started = performance.now();
    await db.$executeRawUnsafe(
      `WITH e AS (
         INSERT INTO journal_entries (kind)
         SELECT 'bench.fill' FROM generate_series(1, $1::int)
         RETURNING id
       )
       INSERT INTO postings (entry_id, account_id, amount_micros)
       SELECT e.id, x.account_id, x.amount
       FROM e CROSS JOIN LATERAL (
         VALUES ($2::bigint, -1::bigint),
                (($3::bigint[])[1 + (e.id % $4::int)::int], 1::bigint)
       ) AS x(account_id, amount)`,
      entries,
      external?.id.toString(),
      `{${ids.join(',')}}`,
      ids.length,
    );
    line(
      `growth: ${done + entries * 2} postings (${((performance.now() - started) / 1000).toFixed(1)} s ` +
        'for this chunk)',
    );
  }
  await db.$executeRawUnsafe('VACUUM (ANALYZE) postings');
  await db.$executeRawUnsafe('VACUUM (ANALYZE) journal_entries');
  await db.$executeRawUnsafe('VACUUM (ANALYZE) ledger_accounts');
}

async function withLedger<T>(work: (context: SettlementContext) => Promise<T>): Promise<T> {
  return withDatabase(async (url) => {
    const db = await createDatabase({ databaseUrl: url, poolSize: 20 });
    try {
      return await work({ db, adapters: chain.adapters, venues });
    } finally {
      await db.close();
    }
  });
}

const chain = fakeChain();
const venues = { ids: {}, apyPools: {}, apyMaxAgeMs: 3_600_000, apyMeanMinSamples: 3 };

/** Settlements against a filled ledger vs an empty one; fills with generate_series. */
export async function runCostGrowthBench(): Promise<void> {
  const load = (await import('node:os')).loadavg().map((value) => value.toFixed(1));
  line(`growth: filling to ${POSTINGS} postings (load ${load.join(' ')})`);
  await withLedger((filled) =>
    withLedger(async (empty) => {
      await fill(filled.db, POSTINGS);
      const wallets = benchWallets();
      const total = ROUNDS * SETTLEMENTS_PER_ROUND;
      const legsOf = async (context: SettlementContext) =>
        prepareRouteLegs(context, chain, wallets, total);
      const [fullLegs, emptyLegs] = [await legsOf(filled), await legsOf(empty)];
      const ratios: number[] = [];
      const rates: { filled: number[]; empty: number[] } = { filled: [], empty: [] };
      for (let round = 0; round < ROUNDS; round += 1) {
        const slice = <L>(legs: L[]) =>
          legs.slice(round * SETTLEMENTS_PER_ROUND, (round + 1) * SETTLEMENTS_PER_ROUND);
        const order =
          round % 2 === 0 ? (['filled', 'empty'] as const) : (['empty', 'filled'] as const);
        const rate = { filled: 0, empty: 0 };
        for (const which of order) {
          rate[which] = await settlementsPerSecond(
            which === 'filled' ? filled : empty,
            slice(which === 'filled' ? fullLegs : emptyLegs),
          );
        }
        rates.filled.push(rate.filled);
        rates.empty.push(rate.empty);
        ratios.push(rate.filled / rate.empty);
      }
      for (const [name, context] of [
        ['filled', filled],
        ['empty', empty],
      ] as const) {
        const report = await verifyLedger(context.db);
        if (!report.ok) throw new Error(`the ${name} ledger does not verify`);
      }
      const after = (await import('node:os')).loadavg().map((value) => value.toFixed(1));
      line(
        `growth: settlements/s at 16 clients, ledger of ${POSTINGS} postings ` +
          `${median(rates.filled).toFixed(0)} vs empty ${median(rates.empty).toFixed(0)} → ratio ` +
          `${median(ratios).toFixed(3)} (median of ${ROUNDS} alternating rounds of ` +
          `${SETTLEMENTS_PER_ROUND}, range ${Math.min(...ratios).toFixed(3)}–` +
          `${Math.max(...ratios).toFixed(3)}; target >= 0.95; both verified; load ${after.join(' ')})`,
      );
    }),
  );
}
