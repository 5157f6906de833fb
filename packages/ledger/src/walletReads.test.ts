import type { AccountRef } from './journal';
import { postJournalEntry } from './journal';
import type { SqlClient } from './sqlClient';
import type { TestDatabase } from './testing';
import { createTestDatabase } from './testing';
import { GroupedBalanceReader, directBalanceReader, readBalancesOf } from './walletReads';

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
  // Wallet i holds i micros liquid; wallet 0 has an account that holds nothing.
  for (let index = 0; index < 12; index += 1) {
    const liquid: AccountRef = { wallet: `reads-${index}`, chain: 'sui', bucket: 'liquid' };
    const inFlight: AccountRef = { wallet: `reads-${index}`, chain: 'sui', bucket: 'in_flight' };
    await test.db.transaction(async (tx) => {
      await postJournalEntry(tx, {
        kind: 'test',
        postings: [
          { account: { system: 'external', chain: 'sui' }, amountMicros: -(BigInt(index) + 1n) },
          { account: inFlight, amountMicros: BigInt(index) + 1n },
        ],
      });
      await postJournalEntry(tx, {
        kind: 'test',
        postings: [
          { account: inFlight, amountMicros: -(BigInt(index) + 1n) },
          ...(index === 0
            ? [{ account: { system: 'external', chain: 'sui' } as const, amountMicros: 1n }]
            : [
                { account: liquid, amountMicros: BigInt(index) },
                { account: { system: 'external', chain: 'sui' } as const, amountMicros: 1n },
              ]),
        ],
      });
    });
  }
});
afterAll(() => test.drop());

/** The database's driver-level client, counting the statements it runs. */
function countingSql(): { sql: SqlClient; statements: () => number } {
  let count = 0;
  return {
    sql: {
      query: (statement, values) => {
        count += 1;
        return test.db.sql.query(statement, values);
      },
    },
    statements: () => count,
  };
}

const liquidOf = (rows: readonly { bucket: string; balanceMicros: bigint }[]) =>
  rows.find((row) => row.bucket === 'liquid')?.balanceMicros;

describe('balance reads', () => {
  it('lists only accounts that hold something, through either client', async () => {
    const viaDriver = await readBalancesOf(test.db, ['reads-0', 'reads-3']);
    const viaPrisma = await test.db.transaction((tx) => readBalancesOf(tx, ['reads-0', 'reads-3']));
    expect(viaDriver).toEqual([
      expect.objectContaining({ wallet: 'reads-3', bucket: 'liquid', balanceMicros: 3n }),
    ]);
    expect(viaPrisma).toEqual(viaDriver);
  });

  it('answers concurrent callers from shared queries, each with its own wallets', async () => {
    const { sql, statements } = countingSql();
    const reader = new GroupedBalanceReader(sql, { maxBatch: 16, maxInFlight: 1 });
    const calls = Array.from({ length: 12 }, (_, index) => [
      `reads-${index}`,
      `reads-${(index + 5) % 12}`,
      'nobody',
    ]);
    const answers = await Promise.all(calls.map((wallets) => reader.read(wallets)));
    answers.forEach((perWallet, index) => {
      expect(perWallet).toHaveLength(3);
      expect(liquidOf(perWallet[0] ?? [])).toBe(index === 0 ? undefined : BigInt(index));
      const other = (index + 5) % 12;
      expect(liquidOf(perWallet[1] ?? [])).toBe(other === 0 ? undefined : BigInt(other));
      expect(perWallet[2]).toEqual([]);
    });
    // The first call goes alone; the other eleven arrived meanwhile and share the next query.
    expect(statements()).toBe(2);
  });

  it('sends a lone caller at once, and reads like the direct reader', async () => {
    const { sql, statements } = countingSql();
    const reader = new GroupedBalanceReader(sql);
    const wallets = ['reads-7', 'reads-0', 'reads-7'];
    expect(await reader.read(wallets)).toEqual(await directBalanceReader(test.db).read(wallets));
    expect(statements()).toBe(1);
  });
});
