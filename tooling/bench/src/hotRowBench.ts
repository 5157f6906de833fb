// BENCH_ONLY=ledger, after settlements: journal writes of 16 writers on one chain, each for its
// own wallet, every entry posting to Base's external account (as a route's reservation does),
// one transaction each (BEGIN, `ledger_post_entry`, COMMIT), against the same clients doing one
// INSERT each. A third mode takes the external row's lock first and holds it to COMMIT, as every
// entry did before migration 0050: what the writers of a chain paid while they queued on it.
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { createDatabase } from '@yieldrouter/ledger';
import { withDatabase } from './benchDatabase';

const WRITERS = 16;
const SECONDS = Number(process.env['BENCH_HOTROW_SECONDS'] ?? 3);
const ROUNDS = Number(process.env['BENCH_HOTROW_ROUNDS'] ?? 3);

type Mode = 'insert' | 'sharded' | 'held';

const line = (text: string) => process.stdout.write(`${text}\n`);
const middle = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

const entry = (wallet: string) =>
  JSON.stringify({
    kind: 'bench.credit',
    postings: [
      { kind: 'system', wallet: null, chain: 'base', bucket: 'external', amount: '-1' },
      { kind: 'wallet', wallet, chain: 'base', bucket: 'liquid', amount: '1' },
    ],
  });

/** Transactions per second of `mode`, `WRITERS` clients for `SECONDS`. */
async function measure(clients: readonly Client[], mode: Mode): Promise<number> {
  const until = performance.now() + SECONDS * 1000;
  let done = 0;
  const started = performance.now();
  await Promise.all(
    clients.map(async (client, index) => {
      const payload = entry(`bench-hot-${index}`);
      while (performance.now() < until) {
        if (mode === 'insert') {
          await client.query('INSERT INTO bench_rows (body) VALUES ($1)', [payload]);
        } else {
          await client.query('BEGIN');
          if (mode === 'held') {
            // One round trip, as the post itself: the lock is held exactly as long as before.
            await client.query(
              `SELECT 1 FROM ledger_accounts
               WHERE wallet IS NULL AND chain = 'base' AND bucket = 'external' FOR UPDATE;
               SELECT entry_id FROM ledger_post_entry('${payload}'::jsonb)`,
            );
          } else {
            await client.query('SELECT entry_id FROM ledger_post_entry($1::jsonb)', [payload]);
          }
          await client.query('COMMIT');
        }
        done += 1;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

export async function runHotRowBench(): Promise<void> {
  await withDatabase(async (url) => {
    // Migrated by the ledger's own runner; the clients below are plain connections.
    await (await createDatabase({ databaseUrl: url, poolSize: 1 })).close();
    const clients = await Promise.all(
      Array.from({ length: WRITERS }, async () => {
        const client = new Client({ connectionString: url });
        await client.connect();
        return client;
      }),
    );
    try {
      const [first] = clients as [Client];
      await first.query('CREATE TABLE bench_rows (id BIGSERIAL PRIMARY KEY, body JSONB NOT NULL)');
      // The accounts exist before the clock starts (a new account is created once).
      await measure(clients, 'sharded');
      const rates: Record<Mode, number[]> = { insert: [], sharded: [], held: [] };
      const ratios: { sharded: number[]; held: number[] } = { sharded: [], held: [] };
      for (let round = 0; round < ROUNDS; round += 1) {
        const order: Mode[] =
          round % 2 === 0 ? ['insert', 'sharded', 'held'] : ['held', 'sharded', 'insert'];
        const got = {} as Record<Mode, number>;
        for (const mode of order) got[mode] = await measure(clients, mode);
        for (const mode of order) rates[mode].push(got[mode]);
        ratios.sharded.push(got.sharded / got.insert);
        ratios.held.push(got.held / got.insert);
      }
      const { rows } = await first.query<{ shards: string }>(
        'SELECT COUNT(*)::text AS shards FROM ledger_balance_shards',
      );
      line(
        `ledger: journal writes on one chain, ${WRITERS} writers for ${WRITERS} wallets ` +
          `(${SECONDS}s x ${ROUNDS} alternating rounds, medians): one INSERT ` +
          `${middle(rates.insert).toFixed(0)}/s; sharded system account ` +
          `${middle(rates.sharded).toFixed(0)}/s → ratio ${middle(ratios.sharded).toFixed(3)}; ` +
          `external row held to COMMIT as before 0050 ${middle(rates.held).toFixed(0)}/s → ` +
          `ratio ${middle(ratios.held).toFixed(3)} (${rows[0]?.shards ?? '?'} shard rows)`,
      );
    } finally {
      await Promise.all(clients.map((client) => client.end()));
    }
  });
}
