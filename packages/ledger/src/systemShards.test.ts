import { Client } from 'pg';
import { readAccountBalance } from './accountBalances';
import type { AccountRef } from './journal';
import { journalEntryPayload } from './journal';
import type { TestDatabase } from './testing';
import { createTestDatabase } from './testing';
import { verifyLedger } from './verifyLedger';

// System accounts off the one hot row (migration 0050): writers of one chain post to its
// external account without waiting on each other, and its balance stays exact.

const EXTERNAL: AccountRef = { system: 'external', chain: 'base' };

let test: TestDatabase;
const clients: Client[] = [];
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.end()));
  await test.drop();
});

async function connect(): Promise<Client> {
  const client = new Client({ connectionString: test.url });
  await client.connect();
  clients.push(client);
  // On the code before 0050 the second writer waits on the first one's lock: fail, not hang.
  await client.query("SET lock_timeout = '3s'");
  return client;
}

/** Credits `wallet`'s liquid on Base from the chain's external account (one statement). */
const credit = (client: Client, wallet: string, amount: bigint) =>
  client.query('SELECT entry_id FROM ledger_post_entry($1::jsonb)', [
    JSON.stringify(
      journalEntryPayload({
        kind: 'test.credit',
        postings: [
          { account: EXTERNAL, amountMicros: -amount },
          { account: { wallet, chain: 'base', bucket: 'liquid' }, amountMicros: amount },
        ],
      }),
    ),
  ]);

const shardRows = async () =>
  (
    await test.db.$queryRaw<{ shard: number; balance: bigint }[]>`
      SELECT s.shard, s.balance_micros AS balance FROM ledger_balance_shards s
      JOIN ledger_accounts a ON a.id = s.account_id
      WHERE a.wallet IS NULL AND a.chain = 'base' AND a.bucket = 'external'
      ORDER BY s.shard`
  ).map((row) => ({ shard: Number(row.shard), balance: row.balance }));

describe('system accounts', () => {
  it('two open transactions post to one external account without waiting on each other', async () => {
    const first = await connect();
    const second = await connect();
    // The account exists (a new one is created once, under its unique key, by the first writer).
    await credit(first, 'shard-wallet-0', 1n);
    const before = await readAccountBalance(test.db, EXTERNAL);
    await first.query('BEGIN');
    await credit(first, 'shard-wallet-1', 3_000_000n);
    // The first transaction is open and has posted: the second posts and commits meanwhile.
    await second.query('BEGIN');
    await expect(credit(second, 'shard-wallet-2', 2_000_000n)).resolves.toBeDefined();
    // Only these two backends: other test files share the cluster and may wait on their own.
    const pids = await Promise.all(
      [first, second].map(async (client) =>
        Number((await client.query('SELECT pg_backend_pid() AS pid')).rows[0]?.pid),
      ),
    );
    const waiting = await test.db.$queryRaw<{ n: bigint }[]>`
      SELECT COUNT(*) AS n FROM pg_locks WHERE NOT granted AND pid = ANY(${pids}::int[])`;
    expect(waiting[0]?.n).toBe(0n);
    await second.query('COMMIT');
    expect(await readAccountBalance(test.db, EXTERNAL)).toBe(before - 2_000_000n);
    await first.query('COMMIT');
    expect(await readAccountBalance(test.db, EXTERNAL)).toBe(before - 5_000_000n);
    // The external row itself was neither locked nor moved: two shards, one per backend.
    expect((await shardRows()).map((row) => row.balance).sort((x, y) => (x < y ? -1 : 1))).toEqual([
      -3_000_001n,
      -2_000_000n,
    ]);
    expect(await verifyLedger(test.db)).toMatchObject({ ok: true, problems: [] });
  });

  it('folds idle shards into shard 0, skips one in use, and keeps the balance', async () => {
    const busy = await connect();
    const before = await readAccountBalance(test.db, EXTERNAL);
    await busy.query('BEGIN');
    await credit(busy, 'shard-wallet-3', 1_000_000n);
    const [folded] = await test.db.$queryRaw<{ n: number }[]>`
      SELECT ledger_fold_balance_shards() AS n`;
    expect(folded?.n).toBeGreaterThanOrEqual(1);
    expect(await readAccountBalance(test.db, EXTERNAL)).toBe(before);
    await busy.query('COMMIT');
    expect(await readAccountBalance(test.db, EXTERNAL)).toBe(before - 1_000_000n);
    await test.db.$queryRaw`SELECT ledger_fold_balance_shards()`;
    expect(await shardRows()).toEqual([{ shard: 0, balance: before - 1_000_000n }]);
    expect(await verifyLedger(test.db)).toMatchObject({ ok: true, problems: [] });
  });

  it('shards move only through postings; a drifted shard is a verifyLedger problem', async () => {
    expect((await shardRows()).length).toBeGreaterThan(0);
    await expect(
      test.db.$executeRaw`UPDATE ledger_balance_shards SET balance_micros = balance_micros + 1`,
    ).rejects.toThrow(/moves only through postings/);
    await expect(test.db.$executeRaw`DELETE FROM ledger_balance_shards`).rejects.toThrow(
      /moves only through postings/,
    );
    await test.db.transaction(async (tx) => {
      await tx.$executeRaw`SELECT set_config('ledger.folding_shards', 'on', true)`;
      await tx.$executeRaw`UPDATE ledger_balance_shards SET balance_micros = balance_micros + 1`;
    });
    const report = await verifyLedger(test.db);
    expect(report.problems).toEqual(
      expect.arrayContaining([expect.objectContaining({ check: 'balance_drift' })]),
    );
  });
});
