import type { Books } from './books';

/**
 * A bucket whose balance differs from what the records it follows account for (reconciliation):
 * `in_flight` from the burns of bridges not delivered yet, `auto_pay` from what runs with a
 * payout leg still open hold, `staked:<opportunityId>` from its position's mark less the fees
 * retained in it.
 */
export interface BucketDifference {
  readonly wallet: string;
  readonly chain: string;
  readonly bucket: string;
  /** The position's opportunity (staked buckets); null for wallet-wide buckets. */
  readonly opportunityId: string | null;
  readonly booksMicros: bigint;
  /** What the records account for. */
  readonly expectedMicros: bigint;
}

interface DifferenceRow {
  wallet: string;
  chain: string;
  bucket: string;
  opportunity_id: string | null;
  books: string;
  expected: string;
}

/** Every bucket whose balance differs from its records, in (wallet, chain, bucket) order. */
export async function readBucketDifferences(db: Books, limit = 1000): Promise<BucketDifference[]> {
  const rows = await db.$queryRaw<DifferenceRow[]>`
    WITH flight AS (
      SELECT t.owner AS wallet, t.source_chain AS chain, SUM(l.settled_amount_micros) AS expected
      FROM bridge_transfers t
      JOIN plan_legs l ON l.plan_id = t.plan_id AND l.effect = 'bridge_burn'
      WHERE l.status = 'confirmed' AND t.delivered_at IS NULL
      GROUP BY 1, 2
    ), held AS (
      SELECT r.wallet, r.chain, SUM(po.amount_micros) AS expected
      FROM auto_pay_runs r
      JOIN journal_entries e ON e.plan_id = r.plan_id
      JOIN postings po ON po.entry_id = e.id
      JOIN ledger_accounts a ON a.id = po.account_id
        AND a.wallet = r.wallet AND a.chain = r.chain AND a.bucket = 'auto_pay'
      WHERE EXISTS (SELECT 1 FROM plan_legs o
                    WHERE o.plan_id = r.plan_id AND o.effect = 'pay_out'
                      AND o.status IN ('unsigned', 'submitted') AND o.released_at IS NULL)
      GROUP BY 1, 2
    ), followed AS (
      SELECT COALESCE(a.wallet, f.wallet) AS wallet, COALESCE(a.chain, f.chain) AS chain,
             'in_flight' AS bucket, NULL::text AS opportunity_id,
             COALESCE(a.balance_micros, 0) AS books, COALESCE(f.expected, 0) AS expected
      FROM (SELECT * FROM ledger_accounts WHERE kind = 'wallet' AND bucket = 'in_flight') a
      FULL JOIN flight f ON f.wallet = a.wallet AND f.chain = a.chain
      UNION ALL
      SELECT COALESCE(a.wallet, h.wallet), COALESCE(a.chain, h.chain), 'auto_pay', NULL,
             COALESCE(a.balance_micros, 0), COALESCE(h.expected, 0)
      FROM (SELECT * FROM ledger_accounts WHERE kind = 'wallet' AND bucket = 'auto_pay') a
      FULL JOIN held h ON h.wallet = a.wallet AND h.chain = a.chain
      UNION ALL
      SELECT COALESCE(a.wallet, p.wallet), COALESCE(a.chain, p.chain),
             'staked:' || COALESCE(p.opportunity_id, substr(a.bucket, 8)),
             COALESCE(p.opportunity_id, substr(a.bucket, 8)),
             COALESCE(a.balance_micros, 0), COALESCE(p.mark_micros - p.fees_retained_micros, 0)
      FROM (SELECT * FROM ledger_accounts WHERE kind = 'wallet' AND bucket LIKE 'staked:%') a
      FULL JOIN positions p
        ON p.wallet = a.wallet AND p.chain = a.chain AND a.bucket = 'staked:' || p.opportunity_id
    )
    SELECT wallet, chain, bucket, opportunity_id, books::text, expected::text
    FROM followed WHERE books <> expected
    ORDER BY wallet, chain, bucket
    LIMIT ${limit}`;
  return rows.map((row) => ({
    wallet: row.wallet,
    chain: row.chain,
    bucket: row.bucket,
    opportunityId: row.opportunity_id,
    booksMicros: BigInt(row.books),
    expectedMicros: BigInt(row.expected),
  }));
}

/** What the books say one wallet holds of one asset in the owner's own wallet on a chain. */
export interface WalletHolding {
  readonly wallet: string;
  readonly chain: string;
  /** `USDC`, `native`, or a token's id on the chain. */
  readonly asset: string;
  /** liquid in the asset; for USDC also auto_pay and pending_out (still in the owner's wallet). */
  readonly booksMicros: bigint;
}

/** Where the previous page of holdings ended. */
export interface HoldingCursor {
  readonly wallet: string;
  readonly chain: string;
  readonly asset: string;
}

/**
 * The books' holdings in owners' wallets (non-zero), a page at a time in (wallet, chain, asset)
 * byte order: what reconciliation compares with the chain's balances.
 */
export async function listWalletHoldings(
  db: Books,
  { limit = 500, after }: { readonly limit?: number; readonly after?: HoldingCursor } = {},
): Promise<WalletHolding[]> {
  const from = after ?? { wallet: '', chain: '', asset: '' };
  const rows = await db.$queryRaw<
    { wallet: string; chain: string; asset: string; books: string }[]
  >`
    SELECT wallet, chain, asset, SUM(balance_micros)::text AS books
    FROM ledger_accounts
    WHERE kind = 'wallet' AND (bucket = 'liquid' OR bucket LIKE 'liquid@%'
                               OR bucket IN ('auto_pay', 'pending_out'))
      AND (wallet COLLATE "C", chain COLLATE "C", asset COLLATE "C")
        > (${from.wallet} COLLATE "C", ${from.chain} COLLATE "C", ${from.asset} COLLATE "C")
    GROUP BY wallet, chain, asset
    HAVING SUM(balance_micros) <> 0
    ORDER BY wallet COLLATE "C", chain COLLATE "C", asset COLLATE "C"
    LIMIT ${limit}`;
  return rows.map((row) => ({
    wallet: row.wallet,
    chain: row.chain,
    asset: row.asset,
    booksMicros: BigInt(row.books),
  }));
}
