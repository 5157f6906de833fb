import type { Books } from './books';
import { readReservationDifferences } from './reconciliation';

export interface LedgerProblem {
  readonly check:
    | 'entry_unbalanced'
    | 'entry_too_few_postings'
    | 'balance_drift'
    | 'wallet_negative'
    | 'ledger_total_nonzero'
    | 'harvest_mismatch'
    | 'reservation_mismatch'
    | 'position_mark_mismatch';
  readonly detail: string;
}

export interface LedgerReport {
  readonly ok: boolean;
  readonly entries: number;
  readonly postings: number;
  readonly accounts: number;
  readonly problems: readonly LedgerProblem[];
}

/**
 * Checks every ledger invariant over the whole database, independently of the triggers that
 * should have kept them: each entry has ≥ 2 postings summing to 0 in each asset; each account
 * balance (a system account's row plus its shards, `ledger_balances`) equals the sum of its postings; no wallet account is negative; all balances of each
 * asset together sum to 0;
 * each harvest's entry posts exactly its net to the wallet's staked account and its fees to
 * protocol fees; every pending balance is held by open legs (a reservation without its leg, or
 * a leg without its reservation, is a problem); every tracked position's mark is its staked
 * balance plus the fees retained in it. Reports up to 100 problems per check.
 */
export async function verifyLedger(db: Books): Promise<LedgerReport> {
  const problems: LedgerProblem[] = [];
  const entries = await db.$queryRaw<{ id: bigint; legs: bigint; total: string }[]>`
    SELECT e.id, COUNT(p.id) AS legs, COALESCE(SUM(p.amount_micros), 0)::text AS total
    FROM journal_entries e LEFT JOIN postings p ON p.entry_id = e.id
    GROUP BY e.id
    HAVING COUNT(p.id) < 2 OR COALESCE(SUM(p.amount_micros), 0) <> 0
    ORDER BY e.id LIMIT 100`;
  for (const row of entries) {
    problems.push(
      row.legs < 2n
        ? { check: 'entry_too_few_postings', detail: `entry ${row.id}: ${row.legs} postings` }
        : { check: 'entry_unbalanced', detail: `entry ${row.id}: postings sum to ${row.total}` },
    );
  }
  // Each asset on its own (0029): a swap's entry balances in its input and in its output.
  const perAsset = await db.$queryRaw<{ id: bigint; asset: string; total: string }[]>`
    SELECT p.entry_id AS id, a.asset, SUM(p.amount_micros)::text AS total
    FROM postings p JOIN ledger_accounts a ON a.id = p.account_id
    WHERE p.entry_id IN (SELECT p2.entry_id FROM postings p2
                         JOIN ledger_accounts a2 ON a2.id = p2.account_id
                         WHERE a2.asset <> 'USDC')
    GROUP BY p.entry_id, a.asset
    HAVING SUM(p.amount_micros) <> 0
    ORDER BY p.entry_id, a.asset LIMIT 100`;
  for (const row of perAsset) {
    problems.push({
      check: 'entry_unbalanced',
      detail: `entry ${row.id}: postings in ${row.asset} sum to ${row.total}`,
    });
  }
  const drift = await db.$queryRaw<{ id: bigint; balance: bigint; total: string }[]>`
    SELECT a.id, a.balance_micros AS balance, COALESCE(SUM(p.amount_micros), 0)::text AS total
    FROM ledger_balances a LEFT JOIN postings p ON p.account_id = a.id
    GROUP BY a.id, a.balance_micros
    HAVING a.balance_micros <> COALESCE(SUM(p.amount_micros), 0)
    ORDER BY a.id LIMIT 100`;
  for (const row of drift) {
    problems.push({
      check: 'balance_drift',
      detail: `account ${row.id}: balance ${row.balance}, postings sum to ${row.total}`,
    });
  }
  const negative = await db.$queryRaw<{ id: bigint; balance: bigint }[]>`
    SELECT id, balance_micros AS balance FROM ledger_accounts
    WHERE kind = 'wallet' AND balance_micros < 0 ORDER BY id LIMIT 100`;
  for (const row of negative) {
    problems.push({ check: 'wallet_negative', detail: `account ${row.id}: ${row.balance}` });
  }
  const harvests = await db.$queryRaw<{ id: string }[]>`
    SELECT h.id FROM harvests h
    JOIN postings p ON p.entry_id = h.entry_id
    JOIN ledger_accounts a ON a.id = p.account_id
    GROUP BY h.id
    HAVING COALESCE(SUM(p.amount_micros) FILTER (
             WHERE a.wallet = h.wallet AND a.bucket = 'staked:' || h.opportunity_id), 0)
             <> h.net_micros
        OR COALESCE(SUM(p.amount_micros) FILTER (WHERE a.bucket = 'fees:protocol'), 0)
             <> h.protocol_fee_micros + h.profit_fee_micros
    ORDER BY h.id LIMIT 100`;
  for (const row of harvests) {
    problems.push({ check: 'harvest_mismatch', detail: `harvest ${row.id}: postings differ` });
  }
  for (const row of await readReservationDifferences(db, 100)) {
    problems.push({
      check: 'reservation_mismatch',
      detail: `${row.wallet}/${row.chain}/${row.bucket}: the books hold ${row.booksMicros}, open legs reserve ${row.openMicros}`,
    });
  }
  const marks = await db.$queryRaw<
    { wallet: string; chain: string; opportunity_id: string; mark: bigint; staked: bigint }[]
  >`
    SELECT pos.wallet, pos.chain, pos.opportunity_id, pos.mark_micros AS mark,
           COALESCE(a.balance_micros, 0)::bigint AS staked
    FROM positions pos
    LEFT JOIN ledger_accounts a
      ON a.wallet = pos.wallet AND a.chain = pos.chain
     AND a.bucket = 'staked:' || pos.opportunity_id
    WHERE pos.mark_micros <> COALESCE(a.balance_micros, 0) + pos.fees_retained_micros
    ORDER BY 1, 2, 3 LIMIT 100`;
  for (const row of marks) {
    problems.push({
      check: 'position_mark_mismatch',
      detail: `${row.wallet}/${row.chain}/${row.opportunity_id}: mark ${row.mark}, staked ${row.staked} + fees retained`,
    });
  }
  const [totals] = await db.$queryRaw<
    { total: string; entries: bigint; postings: bigint; accounts: bigint }[]
  >`
    SELECT COALESCE((SELECT SUM(balance_micros) FROM ledger_balances WHERE asset = 'USDC'), 0)::text
             AS total,
           (SELECT COUNT(*) FROM journal_entries) AS entries,
           (SELECT COUNT(*) FROM postings) AS postings,
           (SELECT COUNT(*) FROM ledger_accounts) AS accounts`;
  if (totals && totals.total !== '0') {
    problems.push({ check: 'ledger_total_nonzero', detail: `balances sum to ${totals.total}` });
  }
  const assetTotals = await db.$queryRaw<{ asset: string; total: string }[]>`
    SELECT asset, SUM(balance_micros)::text AS total FROM ledger_balances
    WHERE asset <> 'USDC' GROUP BY asset HAVING SUM(balance_micros) <> 0 ORDER BY asset LIMIT 100`;
  for (const row of assetTotals) {
    problems.push({
      check: 'ledger_total_nonzero',
      detail: `balances in ${row.asset} sum to ${row.total}`,
    });
  }
  return {
    ok: problems.length === 0,
    entries: Number(totals?.entries ?? 0n),
    postings: Number(totals?.postings ?? 0n),
    accounts: Number(totals?.accounts ?? 0n),
    problems,
  };
}
