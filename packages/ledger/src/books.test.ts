import { createApiKey } from './apiKeys';
import { readBalancesOf } from './walletReads';
import { createTestDatabase } from './testing';
import type { TestDatabase } from './testing';

let test: TestDatabase;

beforeAll(async () => {
  test = await createTestDatabase();
});

afterAll(async () => {
  await test.drop();
});

const keyCount = () => test.db.apiKey.count();

describe('Books', () => {
  it('answers the model queries and raw SQL of the client it holds', async () => {
    const rows = await test.db.$queryRaw<{ one: number }[]>`SELECT 1 AS one`;
    expect(rows).toEqual([{ one: 1 }]);
    expect(await keyCount()).toBeGreaterThanOrEqual(0);
    expect(test.db.inTransaction).toBe(false);
    expect(test.db.kind).toBe('postgres');
  });

  it('runs a transaction on books bound to it: its writes commit together, or none', async () => {
    const before = await keyCount();
    await expect(
      test.db.transaction(async (tx) => {
        expect(tx.inTransaction).toBe(true);
        await createApiKey(tx, { role: 'owner', wallets: ['books-a'] }, 'secret');
        // Seen inside, through the transaction's own driver too.
        const [seen] = await tx.sql.query<{ n: number }>(
          {
            name: 'books_test_count',
            text: 'SELECT count(*)::int AS n FROM api_keys',
            readOnly: true,
          },
          [],
        );
        expect(seen?.n).toBe(before + 1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await keyCount()).toBe(before);
  });

  it('joins the open transaction when asked for another inside one', async () => {
    const joined = await test.db.transaction(async (tx) => {
      const [outer] = await tx.$queryRaw<{ id: bigint }[]>`SELECT txid_current() AS id`;
      const inner = await tx.transaction(
        async (again) => (await again.$queryRaw<{ id: bigint }[]>`SELECT txid_current() AS id`)[0],
      );
      return outer?.id === inner?.id;
    });
    expect(joined).toBe(true);
  });

  it('runs the work again after a serialization failure', async () => {
    let runs = 0;
    const answer = await test.db.transaction(async (tx) => {
      runs += 1;
      if (runs === 1) {
        await tx.$executeRawUnsafe(
          "DO $$ BEGIN RAISE EXCEPTION 'could not serialize' USING ERRCODE = '40001'; END $$",
        );
      }
      return readBalancesOf(tx, ['books-nobody']);
    });
    expect(runs).toBe(2);
    expect(answer).toEqual([]);
  });

  it("refuses to close from a transaction's books", async () => {
    await expect(test.db.transaction((tx) => tx.close())).rejects.toThrow(/open books/);
  });
});
