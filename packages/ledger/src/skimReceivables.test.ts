import type { AccountRef } from './journal';
import { keyOf, postJournalEntry } from './journal';
import { readAccountBalance } from './accountBalances';
import { readOpenSkimReceivables } from './skimReceivables';
import type { TestDatabase } from './testing';
import { createTestDatabase } from './testing';
import { verifyLedger } from './verifyLedger';

// Migration 0055: the protocol's skim an exit left with the owner is owed to fees:receivable, one
// system account per chain, never a cross-chain one (issue #46).
const fees: AccountRef = { system: 'fees:protocol' };
const owed: AccountRef = { system: 'fees:receivable', chain: 'base' };

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

it('keys fees:receivable per chain; it moves like any system account and may go negative', async () => {
  expect(keyOf(owed)).toEqual({
    kind: 'system',
    wallet: null,
    chain: 'base',
    bucket: 'fees:receivable',
  });
  await test.db.transaction((tx) =>
    postJournalEntry(tx, {
      kind: 'test.owed',
      postings: [
        { account: fees, amountMicros: -200_000n },
        { account: owed, amountMicros: 200_000n },
      ],
    }),
  );
  await test.db.transaction((tx) =>
    postJournalEntry(tx, {
      kind: 'test.paid',
      postings: [
        { account: owed, amountMicros: -250_000n },
        { account: fees, amountMicros: 250_000n },
      ],
    }),
  );
  expect(await readAccountBalance(test.db, owed)).toBe(-50_000n);
  expect(await verifyLedger(test.db)).toMatchObject({ ok: true, problems: [] });
  // Entries without a plan owe nothing a plan can be asked for: none listed as a plan's.
  expect((await readOpenSkimReceivables(test.db)).filter((row) => row.planId !== null)).toEqual([]);
});

it("the database refuses a fees:receivable that is not one chain's", async () => {
  const payload = JSON.stringify({
    kind: 'test.all',
    postings: [
      { kind: 'system', wallet: null, chain: 'all', bucket: 'fees:protocol', amount: '-1' },
      { kind: 'system', wallet: null, chain: 'all', bucket: 'fees:receivable', amount: '1' },
    ],
  });
  await expect(
    test.db.transaction(
      (tx) => tx.$queryRaw`SELECT entry_id FROM ledger_post_entry(${payload}::jsonb)`,
    ),
  ).rejects.toThrow(/ledger_accounts_check/);
});
