import type { AccountRef } from './journal';
import { LedgerError, assertBalanced, postJournalEntry } from './journal';
import { readAccountBalance, readAssetBalances } from './accountBalances';
import { readBalancesOf } from './walletReads';
import type { TestDatabase } from './testing';
import { createTestDatabase } from './testing';
import { verifyLedger } from './verifyLedger';

// Accounts per asset (0029): a swap's entry balances in each asset; a wallet never goes negative
// in any asset; money fields read USDC only.
const WALLET = '0x00000000000000000000000000000000000000a1';
const WETH = '0x4200000000000000000000000000000000000006';
const liquid: AccountRef = { wallet: WALLET, chain: 'base', bucket: 'liquid' };
const liquidWeth: AccountRef = { ...liquid, asset: WETH };
const external: AccountRef = { system: 'external', chain: 'base' };
const externalWeth: AccountRef = { system: 'external', chain: 'base', asset: WETH };

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

const post = (postings: { account: AccountRef; amountMicros: bigint }[]) =>
  test.db.transaction((tx) => postJournalEntry(tx, { kind: 'test', postings }));

describe('accounts per asset', () => {
  it('a swap entry balances per asset; balances and reads follow', async () => {
    await post([
      { account: external, amountMicros: -10_000_000n },
      { account: liquid, amountMicros: 10_000_000n },
    ]);
    await post([
      { account: liquid, amountMicros: -4_000_000n },
      { account: external, amountMicros: 3_990_000n },
      { account: { system: 'fees:protocol' }, amountMicros: 10_000n },
      { account: externalWeth, amountMicros: -1_200_000_000_000_000n },
      { account: liquidWeth, amountMicros: 1_200_000_000_000_000n },
    ]);
    expect(await readAccountBalance(test.db, liquid)).toBe(6_000_000n);
    expect(await readAccountBalance(test.db, liquidWeth)).toBe(1_200_000_000_000_000n);
    expect(
      (await readBalancesOf(test.db, [WALLET])).map((row) => [row.bucket, row.balanceMicros]),
    ).toEqual([['liquid', 6_000_000n]]);
    expect(await readAssetBalances(test.db, WALLET)).toEqual([
      { chain: 'base', asset: WETH, balance: 1_200_000_000_000_000n },
    ]);
    const [account] = await test.db.ledgerAccount.findMany({
      where: { wallet: WALLET, asset: WETH },
    });
    expect(account?.bucket).toBe(`liquid@${WETH}`);
    expect(await verifyLedger(test.db)).toMatchObject({ ok: true, problems: [] });
  });

  it('refuses an entry that sums to zero only across assets (in TypeScript and in the database)', async () => {
    const crossed = [
      { account: liquid, amountMicros: -1_000_000n },
      { account: externalWeth, amountMicros: 1_000_000n },
    ];
    expect(() => assertBalanced(crossed)).toThrow('postings sum to -1000000, not 0');
    const payload = JSON.stringify({
      kind: 'test.crossed',
      postings: [
        { kind: 'wallet', wallet: WALLET, chain: 'base', bucket: 'liquid', amount: '-1000000' },
        {
          kind: 'system',
          wallet: null,
          chain: 'base',
          bucket: `external@${WETH}`,
          amount: '1000000',
        },
      ],
    });
    await expect(
      test.db.transaction(
        (tx) => tx.$queryRaw`SELECT entry_id FROM ledger_post_entry(${payload}::jsonb)`,
      ),
    ).rejects.toThrow(/unbalanced in/);
    expect(await readAccountBalance(test.db, liquid)).toBe(6_000_000n);
  });

  it('never overdraws a wallet in another asset, and refuses an asset where only USDC goes', async () => {
    const error = await post([
      { account: liquidWeth, amountMicros: -1_200_000_000_000_001n },
      { account: externalWeth, amountMicros: 1_200_000_000_000_001n },
    ]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LedgerError);
    expect((error as LedgerError).code).toBe('INSUFFICIENT_BALANCE');
    await expect(
      post([
        {
          account: { wallet: WALLET, chain: 'base', bucket: 'pending_in', asset: WETH },
          amountMicros: 1n,
        },
        { account: externalWeth, amountMicros: -1n },
      ]),
    ).rejects.toThrow(/holds USDC only/);
  });
});
