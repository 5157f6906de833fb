import { Client } from 'pg';
import type { AccountRef } from './journal';
import { LedgerError, postJournalEntry } from './journal';
import { sqlStatement } from './sqlClient';
import { readBalancesOf } from './walletReads';
import type { TestDatabase } from './testing';
import { createTestDatabase } from './testing';
import { verifyLedger } from './verifyLedger';

const WALLET = 'wallet-a';
const STAKED = 'staked:svcop0123456789abcdef01234567' as const;
const liquid: AccountRef = { wallet: WALLET, chain: 'solana', bucket: 'liquid' };
const staked: AccountRef = { wallet: WALLET, chain: 'solana', bucket: STAKED };
const external: AccountRef = { system: 'external', chain: 'solana' };

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

const post = (postings: { account: AccountRef; amountMicros: bigint }[], dedupeKey?: string) =>
  test.db.transaction((tx) =>
    postJournalEntry(tx, { kind: 'test', postings, ...(dedupeKey ? { dedupeKey } : {}) }),
  );
const balances = async () =>
  Object.fromEntries(
    (await readBalancesOf(test.db, [WALLET])).map((row) => [
      `${row.chain}/${row.bucket}`,
      row.balanceMicros,
    ]),
  );

describe('double-entry journal', () => {
  it('credits from the chain, moves liquid to staked, keeps the ledger clean', async () => {
    await post([
      { account: liquid, amountMicros: 5_000_000n },
      { account: external, amountMicros: -5_000_000n },
    ]);
    await post([
      { account: liquid, amountMicros: -3_000_000n },
      { account: staked, amountMicros: 3_000_000n },
    ]);
    expect(await balances()).toEqual({
      'solana/liquid': 2_000_000n,
      [`solana/${STAKED}`]: 3_000_000n,
    });
    expect(await verifyLedger(test.db)).toMatchObject({ ok: true, problems: [] });
  });

  it('refuses an overdraft before writing anything, naming the account', async () => {
    const before = await balances();
    const error = await post([
      { account: liquid, amountMicros: -2_000_001n },
      { account: external, amountMicros: 2_000_001n },
    ]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LedgerError);
    expect(error).toMatchObject({ code: 'INSUFFICIENT_BALANCE', account: liquid });
    expect(await balances()).toEqual(before);
  });

  it('refuses an entry that would take a balance past 2^63 − 1 micros, writing nothing', async () => {
    const max = 2n ** 63n - 1n;
    const other: AccountRef = { wallet: 'wallet-far', chain: 'base', bucket: 'liquid' };
    const baseExternal: AccountRef = { system: 'external', chain: 'base' };
    await post([
      { account: other, amountMicros: max },
      { account: baseExternal, amountMicros: -max },
    ]);
    const error = await post([
      { account: other, amountMicros: 1n },
      { account: baseExternal, amountMicros: -1n },
    ]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LedgerError);
    expect(error).toMatchObject({ code: 'OUT_OF_RANGE' });
    expect((await readBalancesOf(test.db, ['wallet-far']))[0]?.balanceMicros).toBe(max);
  });

  it('refuses unbalanced, single-leg and zero postings in code', async () => {
    for (const postings of [
      [
        { account: liquid, amountMicros: 1n },
        { account: external, amountMicros: -2n },
      ],
      [{ account: liquid, amountMicros: 1n }],
      [
        { account: liquid, amountMicros: 0n },
        { account: external, amountMicros: 0n },
      ],
    ]) {
      await expect(post(postings)).rejects.toBeInstanceOf(LedgerError);
    }
  });

  it('a dedupe key posts once; the replay writes nothing', async () => {
    const credit = [
      { account: liquid, amountMicros: 1_000n },
      { account: external, amountMicros: -1_000n },
    ];
    const first = await post(credit, 'settle:solana:sig-1');
    const again = await post(credit, 'settle:solana:sig-1');
    expect(first.replay).toBe(false);
    expect(again).toEqual({ entryId: first.entryId, replay: true });
    expect((await balances())['solana/liquid']).toBe(2_001_000n);
  });

  it('a dedupe replay with other postings is DEDUPE_CONFLICT (YR002) and writes nothing', async () => {
    // A wallet of its own: the tests below count wallet-a's balance.
    const mine: AccountRef = { wallet: 'wallet-d', chain: 'solana', bucket: 'liquid' };
    const credit = (amountMicros: bigint, account: AccountRef = mine) => [
      { account, amountMicros },
      { account: external, amountMicros: -amountMicros },
    ];
    await post(credit(2_000n), 'exit:wallet-a:key-1');
    const before = await readBalancesOf(test.db, ['wallet-d']);
    for (const other of [credit(3_000n), credit(2_000n, { ...mine, bucket: STAKED })]) {
      const error = await post(other, 'exit:wallet-a:key-1').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(LedgerError);
      expect(error).toMatchObject({ code: 'DEDUPE_CONFLICT' });
      expect((error as Error).message).toContain('exit:wallet-a:key-1');
    }
    // Another plan with the same postings is another entry too: never a silent replay.
    const otherPlan = await test.db
      .transaction((tx) =>
        postJournalEntry(tx, {
          kind: 'test',
          planId: 'plan_other',
          dedupeKey: 'exit:wallet-a:key-1',
          postings: credit(2_000n),
        }),
      )
      .catch((caught: unknown) => caught);
    expect(otherPlan).toMatchObject({ code: 'DEDUPE_CONFLICT' });
    // Within one batch too (the settlement path posts batches through the same function).
    const batch = await test.db.sql
      .query(sqlStatement('test_post_twice', 'SELECT * FROM ledger_post_entries($1::jsonb)'), [
        JSON.stringify(
          [1_000n, 4_000n].map((amount) => ({
            kind: 'test',
            dedupeKey: 'batch-twice',
            postings: [
              {
                kind: 'wallet',
                wallet: 'wallet-d',
                chain: 'solana',
                bucket: 'liquid',
                amount: `${amount}`,
              },
              {
                kind: 'system',
                wallet: null,
                chain: 'solana',
                bucket: 'external',
                amount: `-${amount}`,
              },
            ],
          })),
        ),
      ])
      .catch((caught: unknown) => caught);
    expect(String(batch)).toMatch(/YR002|posted before as another entry/);
    expect(await readBalancesOf(test.db, ['wallet-d'])).toEqual(before);
  });

  it('the database itself refuses an unbalanced entry at commit, whatever the code does', async () => {
    const client = new Client({ connectionString: test.url });
    await client.connect();
    try {
      await client.query('BEGIN');
      const entry = await client.query<{ id: string }>(
        "INSERT INTO journal_entries (kind) VALUES ('rogue') RETURNING id",
      );
      await client.query(
        `INSERT INTO postings (entry_id, account_id, amount_micros)
         SELECT $1, id, 1 FROM ledger_accounts WHERE wallet = $2 AND bucket = 'liquid'`,
        [entry.rows[0]?.id, WALLET],
      );
      await expect(client.query('COMMIT')).rejects.toThrow(/unbalanced/);
    } finally {
      await client.end();
    }
    expect((await balances())['solana/liquid']).toBe(2_001_000n);
  });

  it('the database refuses a journal entry without postings at commit', async () => {
    const client = new Client({ connectionString: test.url });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query("INSERT INTO journal_entries (kind) VALUES ('empty')");
      await expect(client.query('COMMIT')).rejects.toThrow(/unbalanced: 0 posting/);
      // Through the ledger function too: an entry needs postings.
      await client.query('BEGIN');
      await client.query(
        `SELECT ledger_post_entries('[{"kind": "empty", "postings": []}]'::jsonb)`,
      );
      await expect(client.query('COMMIT')).rejects.toThrow(/unbalanced: 0 posting/);
    } finally {
      await client.end();
    }
    const [row] = await test.db.$queryRaw<{ n: bigint }[]>`
      SELECT COUNT(*) AS n FROM journal_entries WHERE kind = 'empty'`;
    expect(row?.n).toBe(0n);
  });

  it('a wallet balance cannot go negative, postings and entries are append-only, balances move only through postings', async () => {
    const prisma = test.db;
    await expect(
      prisma.$executeRaw`UPDATE ledger_accounts SET balance_micros = -1 WHERE wallet = ${WALLET}`,
    ).rejects.toThrow();
    await expect(prisma.$executeRaw`UPDATE postings SET amount_micros = 7`).rejects.toThrow(
      /append-only/,
    );
    await expect(prisma.$executeRaw`DELETE FROM journal_entries`).rejects.toThrow(/append-only/);
    expect(await verifyLedger(prisma)).toMatchObject({ ok: true });
  });
});

describe('verifyLedger', () => {
  it('finds what the triggers would have refused: a lone posting, a drifted balance', async () => {
    const broken = await createTestDatabase();
    try {
      const client = new Client({ connectionString: broken.url });
      await client.connect();
      try {
        await client.query('ALTER TABLE postings DISABLE TRIGGER USER');
        await client.query('ALTER TABLE journal_entries DISABLE TRIGGER USER');
        await client.query(
          "INSERT INTO ledger_accounts (kind, wallet, chain, bucket) VALUES ('wallet', 'w', 'sui', 'liquid')",
        );
        await client.query("INSERT INTO journal_entries (kind) VALUES ('rogue')");
        await client.query(
          'INSERT INTO postings (entry_id, account_id, amount_micros) VALUES (1, 1, 5)',
        );
      } finally {
        await client.end();
      }
      const report = await verifyLedger(broken.db);
      expect(report.ok).toBe(false);
      expect(report.problems.map((problem) => problem.check).sort()).toEqual([
        'balance_drift',
        'entry_too_few_postings',
      ]);
    } finally {
      await broken.drop();
    }
  });

  it('finds a harvest whose entry does not post what the harvest row says', async () => {
    const opportunityId = STAKED.slice('staked:'.length);
    await test.db.venue.create({
      data: {
        id: 'verify-venue',
        opportunityId,
        protocol: 'Test',
        chain: 'solana',
        asset: 'USDC',
        readiness: 'ready',
        standard: 'router-adapter',
        wave: 1,
        priority: 1,
        actions: [],
        requiredIds: [],
        minDepositMicros: 0n,
        catalogVersion: 1,
      },
    });
    const { entryId } = await test.db.transaction((tx) =>
      postJournalEntry(tx, {
        kind: 'harvest',
        postings: [
          { account: external, amountMicros: -100n },
          { account: staked, amountMicros: 95n },
          { account: { system: 'fees:protocol' }, amountMicros: 5n },
        ],
      }),
    );
    const row = {
      id: `hvst_${'ab'.repeat(16)}`,
      wallet: WALLET,
      chain: 'solana',
      opportunityId,
      venueId: 'verify-venue',
      entryId,
      valueMicros: 1_000n,
      valueAsOf: new Date(),
      basisMicros: 900n,
      grossMicros: 100n,
    };
    // The row claims 90 net and 10 of fees; the entry posted 95 and 5.
    await test.db.harvest.create({
      data: { ...row, protocolFeeMicros: 10n, profitFeeMicros: 0n, netMicros: 90n },
    });
    const report = await verifyLedger(test.db);
    expect(report.problems).toEqual([
      { check: 'harvest_mismatch', detail: `harvest ${row.id}: postings differ` },
    ]);
  });
});
