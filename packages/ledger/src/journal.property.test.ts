import fc from 'fast-check';
import type { AccountRef, LedgerChain } from './journal';
import { LedgerError, postJournalEntry } from './journal';
import { readBalancesOf } from './walletReads';
import type { TestDatabase } from './testing';
import { createTestDatabase } from './testing';
import { verifyLedger } from './verifyLedger';

// Random sequences of money moves against a plain in-memory model: the ledger must agree with
// the model after every run, refuse exactly the moves the model says would overdraw, and stay
// clean (postings sum to zero, balances equal their postings, nothing negative).
const STAKED = 'staked:svcopaaaaaaaaaaaaaaaaaaaaaaaa' as const;

type Op = {
  readonly kind: 'credit' | 'stake' | 'unstake' | 'withdraw' | 'skim';
  readonly wallet: number;
  readonly chain: LedgerChain;
  readonly amount: bigint;
};

const op = fc.record({
  kind: fc.constantFrom('credit', 'stake', 'unstake', 'withdraw', 'skim'),
  wallet: fc.integer({ min: 0, max: 1 }),
  chain: fc.constantFrom<LedgerChain>('sui', 'solana'),
  amount: fc.bigInt({ min: 1n, max: 5_000_000n }),
}) as fc.Arbitrary<Op>;

/** [debited account, credited account] of an operation. */
function accounts(prefix: string, { kind, wallet, chain }: Op): [AccountRef, AccountRef] {
  const name = `${prefix}-${wallet}`;
  const liquid: AccountRef = { wallet: name, chain, bucket: 'liquid' };
  const staked: AccountRef = { wallet: name, chain, bucket: STAKED };
  const external: AccountRef = { system: 'external', chain };
  switch (kind) {
    case 'credit':
      return [external, liquid];
    case 'stake':
      return [liquid, staked];
    case 'unstake':
      return [staked, liquid];
    case 'withdraw':
      return [liquid, external];
    case 'skim':
      return [staked, { system: 'fees:protocol' }];
  }
}

const modelKey = (ref: AccountRef) =>
  'wallet' in ref ? `${ref.wallet}/${ref.chain}/${ref.bucket}` : null;

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

describe('ledger invariants over random operation sequences (property)', () => {
  it('agrees with the model, refuses exactly the overdrafts, and verifies clean', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        run += 1;
        const prefix = `w${run}-${Date.now()}`;
        const model = new Map<string, bigint>();
        for (const move of ops) {
          const [from, to] = accounts(prefix, move);
          const fromKey = modelKey(from);
          const short = fromKey !== null && (model.get(fromKey) ?? 0n) < move.amount;
          const outcome = await test.db
            .transaction((tx) =>
              postJournalEntry(tx, {
                kind: move.kind,
                postings: [
                  { account: from, amountMicros: -move.amount },
                  { account: to, amountMicros: move.amount },
                ],
              }),
            )
            .catch((error: unknown) => error);
          if (short) {
            expect(outcome).toBeInstanceOf(LedgerError);
            expect((outcome as LedgerError).code).toBe('INSUFFICIENT_BALANCE');
            continue;
          }
          expect(outcome).not.toBeInstanceOf(Error);
          if (fromKey !== null) model.set(fromKey, (model.get(fromKey) ?? 0n) - move.amount);
          const toKey = modelKey(to);
          if (toKey !== null) model.set(toKey, (model.get(toKey) ?? 0n) + move.amount);
        }
        for (const wallet of [0, 1]) {
          const name = `${prefix}-${wallet}`;
          for (const row of await readBalancesOf(test.db, [name])) {
            expect(row.balanceMicros).toBe(model.get(`${name}/${row.chain}/${row.bucket}`) ?? 0n);
            expect(row.balanceMicros >= 0n).toBe(true);
          }
        }
        const report = await verifyLedger(test.db);
        expect(report.problems).toEqual([]);
      }),
      { numRuns: 20 },
    );
  }, 120_000);
});

describe('concurrency on one wallet', () => {
  const liquid: AccountRef = { wallet: 'busy', chain: 'solana', bucket: 'liquid' };
  // A bucket no leg accounts for (pending_* balances must be held by open legs).
  const inFlight: AccountRef = { wallet: 'busy', chain: 'solana', bucket: 'in_flight' };
  const external: AccountRef = { system: 'external', chain: 'solana' };
  const move = (from: AccountRef, to: AccountRef, amount: bigint, dedupeKey?: string) =>
    test.db.transaction((tx) =>
      postJournalEntry(tx, {
        kind: 'test',
        postings: [
          { account: from, amountMicros: -amount },
          { account: to, amountMicros: amount },
        ],
        ...(dedupeKey ? { dedupeKey } : {}),
      }),
    );

  it('64 concurrent moves of 1.5 out of 64: exactly 42 pass, 1 left, never negative', async () => {
    await move(external, liquid, 64_000_000n);
    const results = await Promise.allSettled(
      Array.from({ length: 64 }, () => move(liquid, inFlight, 1_500_000n)),
    );
    const passed = results.filter((result) => result.status === 'fulfilled').length;
    const refused = results.filter(
      (result) =>
        result.status === 'rejected' &&
        result.reason instanceof LedgerError &&
        result.reason.code === 'INSUFFICIENT_BALANCE',
    ).length;
    expect([passed, refused]).toEqual([42, 22]);
    const balances = await readBalancesOf(test.db, ['busy']);
    expect(Object.fromEntries(balances.map((row) => [row.bucket, row.balanceMicros]))).toEqual({
      liquid: 1_000_000n,
      in_flight: 63_000_000n,
    });
    expect((await verifyLedger(test.db)).ok).toBe(true);
  }, 60_000);

  it('the same dedupe key fired 20 times at once posts once', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () => move(external, liquid, 7n, 'settle:solana:same-signature')),
    );
    expect(results.filter((result) => !result.replay)).toHaveLength(1);
    expect(new Set(results.map((result) => result.entryId)).size).toBe(1);
    const rows = await readBalancesOf(test.db, ['busy']);
    expect(rows.find((row) => row.bucket === 'liquid')?.balanceMicros).toBe(1_000_007n);
  }, 60_000);
});
