import type {
  AccountRef,
  BalanceGuard,
  LedgerChain,
  PostingInput,
  SettlementLeg,
} from '@yieldrouter/ledger';

// The accounts a leg's booking moves money between, the balances it reads (guards), and the
// netted moves it posts: shared by settling a leg (settlementPostings.ts) and releasing one
// (releaseBooking.ts).

export const walletAccount = (
  leg: SettlementLeg,
  bucket: 'liquid' | 'pending_in' | 'pending_out' | 'auto_pay',
): AccountRef => ({ wallet: leg.wallet as string, chain: leg.chain as LedgerChain, bucket });
export const stakedAccount = (leg: SettlementLeg): AccountRef => ({
  wallet: leg.wallet as string,
  chain: leg.chain as LedgerChain,
  bucket: `staked:${leg.opportunityId}`,
});
export const externalAccount = (leg: SettlementLeg): AccountRef => ({
  system: 'external',
  chain: leg.chain as LedgerChain,
});
export const FEES: AccountRef = { system: 'fees:protocol' };

/** The wallet's balance in `bucket` must still be what the booking read. */
export const walletGuard = (
  leg: SettlementLeg,
  bucket: 'liquid' | 'auto_pay' | 'pending_in',
  expectMicros: bigint,
): BalanceGuard => ({ account: walletAccount(leg, bucket), expectMicros });
/** What the leg's own plan holds in `bucket` must still be what the booking read. */
export const planGuard = (
  leg: SettlementLeg,
  bucket: 'auto_pay' | 'pending_in',
  expectMicros: bigint,
): BalanceGuard => ({ account: walletAccount(leg, bucket), planId: leg.planId, expectMicros });

const keyOf = (account: AccountRef) =>
  'wallet' in account
    ? `w:${account.wallet}:${account.chain}:${account.bucket}`
    : `s:${account.system}:${'chain' in account ? account.chain : 'all'}`;

/** Moves, netted per account (zero lines dropped), so an entry never names an account twice. */
export class Moves {
  private readonly lines = new Map<string, { account: AccountRef; amount: bigint }>();

  move(from: AccountRef, to: AccountRef, amount: bigint): this {
    if (amount <= 0n) return this;
    this.add(from, -amount);
    this.add(to, amount);
    return this;
  }

  private add(account: AccountRef, amount: bigint) {
    const key = keyOf(account);
    const line = this.lines.get(key);
    this.lines.set(key, { account, amount: (line?.amount ?? 0n) + amount });
  }

  postings(): PostingInput[] {
    return [...this.lines.values()]
      .filter((line) => line.amount !== 0n)
      .map((line) => ({ account: line.account, amountMicros: line.amount }));
  }
}

export const min = (a: bigint, b: bigint) => (a < b ? a : b);
