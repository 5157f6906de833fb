import type { Books } from './books';
import { BatchQueue } from './batchQueue';
import type { SqlClient } from './sqlClient';
import { sqlStatement } from './sqlClient';

/** One wallet account's balance, with the venue of a `staked:<opportunityId>` bucket. */
export interface WalletBalanceRow {
  readonly wallet: string;
  readonly chain: string;
  readonly bucket: string;
  readonly balanceMicros: bigint;
  readonly venueId: string | null;
  readonly protocol: string | null;
  /** The opportunity of a `staked:<opportunityId>` bucket; null for any other bucket. */
  readonly opportunityId: string | null;
}

// JSON in and out: one value instead of a text[] parameter and a row per account, which a
// client decodes one by one at more cost than the query itself for 50 wallets. Only accounts
// that hold something come back (a settled wallet's pending buckets sit at 0), in USDC only (the
// money fields; other assets a swap brought in are read by readAssetBalances), unsorted (the
// caller groups by wallet), and only a staked bucket looks its venue up (unique index), so a
// batch of 50 wallets costs little more than one. `wallet = ANY(ARRAY(…))` keeps the wallet
// index in the plan whatever the JSON's size.
const BALANCES_OF = sqlStatement(
  'yr_balances_of',
  `
  SELECT COALESCE(json_agg(json_build_array(
           a.wallet, a.chain, a.bucket, a.balance_micros::text, v.id, v.protocol)), '[]')::text
         AS rows
  FROM ledger_accounts a
  LEFT JOIN LATERAL (
    SELECT v.id, v.protocol FROM venues v
    WHERE a.bucket LIKE 'staked:%' AND v.opportunity_id = substr(a.bucket, 8)
  ) v ON true
  WHERE a.wallet = ANY (ARRAY(SELECT jsonb_array_elements_text($1::jsonb)))
    AND a.balance_micros <> 0 AND a.asset = 'USDC'`,
  { readOnly: true },
);

type BalanceTuple = [string, string, string, string, string | null, string | null];

const STAKED_PREFIX = 'staked:';

/**
 * The non-zero balances of many wallets in one query, in no particular order (accounts that
 * hold nothing are absent). Takes the database's `sql` client on the read path, or a Prisma
 * client or transaction.
 */
export async function readBalancesOf(
  db: Pick<Books, 'sql'>,
  wallets: readonly string[],
): Promise<WalletBalanceRow[]> {
  if (wallets.length === 0) return [];
  const [result] = await db.sql.query<{ rows: string }>(BALANCES_OF, [
    // Sorted: the index scan sorts the keys again, and sorted input is its cheapest case.
    JSON.stringify([...wallets].sort()),
  ]);
  const rows = JSON.parse(result?.rows ?? '[]') as BalanceTuple[];
  return rows.map(([wallet, chain, bucket, balance, venueId, protocol]) => ({
    wallet,
    chain,
    bucket,
    balanceMicros: BigInt(balance),
    venueId,
    protocol,
    opportunityId: bucket.startsWith(STAKED_PREFIX) ? bucket.slice(STAKED_PREFIX.length) : null,
  }));
}

/** Where position reads get balances from: one query per call, or grouped across callers. */
export interface BalanceReader {
  /** Each wallet's non-zero balances (in no particular order), wallet by wallet as asked. */
  read(wallets: readonly string[]): Promise<WalletBalanceRow[][]>;
}

/** Rows of many wallets by wallet. */
function groupByWallet(rows: readonly WalletBalanceRow[]): Map<string, WalletBalanceRow[]> {
  const byWallet = new Map<string, WalletBalanceRow[]>();
  for (const row of rows) {
    const list = byWallet.get(row.wallet);
    if (list) list.push(row);
    else byWallet.set(row.wallet, [row]);
  }
  return byWallet;
}

const pick = (byWallet: Map<string, WalletBalanceRow[]>, wallets: readonly string[]) =>
  wallets.map((wallet) => byWallet.get(wallet) ?? []);

/** Each call is its own query, on any client (a Prisma transaction included). */
export function directBalanceReader(db: Pick<Books, 'sql'>): BalanceReader {
  return {
    read: async (wallets) => pick(groupByWallet(await readBalancesOf(db, wallets)), wallets),
  };
}

export interface GroupedBalanceReaderOptions {
  /** Calls answered by one query at most (default 16; each asks for up to 50 wallets). */
  readonly maxBatch?: number;
  /** Queries running at once (default 2). */
  readonly maxInFlight?: number;
}

/**
 * Balance reads grouped across concurrent callers (`BatchQueue`): the calls that arrive while a
 * query runs are answered together by the next one, so a busy API pays one round trip and one
 * statement for many position reads. A caller alone is sent at once, and a query started after
 * a call always sees what had committed by then: no answer is older than its request.
 */
export class GroupedBalanceReader implements BalanceReader {
  private readonly queue: BatchQueue<readonly string[], WalletBalanceRow[][]>;

  constructor(sql: SqlClient, options: GroupedBalanceReaderOptions = {}) {
    this.queue = new BatchQueue(
      async (calls) => {
        const byWallet = groupByWallet(await readBalancesOf({ sql }, [...new Set(calls.flat())]));
        return calls.map((call) => ({ ok: true, value: pick(byWallet, call) }));
      },
      { maxBatch: options.maxBatch ?? 16, maxInFlight: options.maxInFlight ?? 2 },
    );
  }

  read(wallets: readonly string[]): Promise<WalletBalanceRow[][]> {
    return this.queue.push(wallets);
  }
}

/** A venue position as the ledger knows it: principal, current worth and its latest proof. */
export interface StakedPosition {
  readonly chain: string;
  readonly opportunityId: string;
  readonly venueId: string | null;
  readonly protocol: string | null;
  /** The venue's on-chain standard (how its position value is read). */
  readonly standard: string | null;
  /** What the position holds now: settled principal plus compounded harvests. */
  readonly balanceMicros: bigint;
  /** Settled deposits minus settled withdrawals (harvests excluded): the cost basis. */
  readonly principalMicros: bigint;
  /** Harvested yield compounded into the position (net of the skim). */
  readonly harvestedMicros: bigint;
  /** The newest on-chain transaction that moved the position. */
  readonly txId: string | null;
}

/** The wallet's venue positions, from postings on its `staked:*` accounts. */
export async function readStakedPositions(db: Books, wallet: string): Promise<StakedPosition[]> {
  const rows = await db.$queryRaw<
    {
      chain: string;
      bucket: string;
      balance: bigint;
      principal: bigint;
      harvested: bigint;
      tx_id: string | null;
      venue_id: string | null;
      protocol: string | null;
      standard: string | null;
    }[]
  >`
    SELECT a.chain, a.bucket, a.balance_micros AS balance,
           COALESCE(SUM(p.amount_micros) FILTER (WHERE e.kind <> 'harvest'), 0)::bigint AS principal,
           COALESCE(SUM(p.amount_micros) FILTER (WHERE e.kind = 'harvest'), 0)::bigint AS harvested,
           (ARRAY_AGG(e.tx_id ORDER BY e.id DESC) FILTER (WHERE e.tx_id IS NOT NULL))[1] AS tx_id,
           v.id AS venue_id, v.protocol, v.standard
    FROM ledger_accounts a
    JOIN postings p ON p.account_id = a.id
    JOIN journal_entries e ON e.id = p.entry_id
    LEFT JOIN venues v ON a.bucket = 'staked:' || v.opportunity_id
    WHERE a.wallet = ${wallet} AND a.bucket LIKE 'staked:%'
    GROUP BY a.id, v.id
    ORDER BY a.chain, a.bucket`;
  return rows.map((row) => ({
    chain: row.chain,
    opportunityId: row.bucket.slice('staked:'.length),
    venueId: row.venue_id,
    protocol: row.protocol,
    standard: row.standard,
    balanceMicros: row.balance,
    principalMicros: row.principal,
    harvestedMicros: row.harvested,
    txId: row.tx_id,
  }));
}

/** One activity row: a leg that reached the chain (or failed), with its plan. */
export interface ActivityLegRow {
  readonly planId: string;
  readonly planKind: string;
  readonly legIndex: number;
  readonly action: string;
  readonly chain: string;
  readonly venueId: string | null;
  readonly txId: string | null;
  readonly amountMicros: bigint;
  readonly settledAmountMicros: bigint | null;
  /** Swap legs: what the quote said would come out (kept for the slippage audit). */
  readonly quotedAmountOutMicros: bigint | null;
  readonly status: string;
  readonly failureReason: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** Bridge plans: the destination chain and, once delivered, the mint and what it credited. */
  readonly bridge: {
    readonly destChain: string;
    readonly mintTxId: string | null;
    readonly deliveredMicros: bigint | null;
  } | null;
}

export interface ActivityCursor {
  readonly createdAt: Date;
  readonly planId: string;
}

/**
 * A page of the wallet's plans that have activity (a leg with a transaction, or a failed leg),
 * newest first, each with all such legs in leg order. Pages never split a plan.
 */
export async function readActivityPage(
  db: Books,
  wallet: string,
  { before, plans }: { before?: ActivityCursor; plans: number },
): Promise<{ legs: ActivityLegRow[]; next: ActivityCursor | null }> {
  const afterTime = before?.createdAt ?? null;
  const afterId = before?.planId ?? null;
  const rows = await db.$queryRaw<
    {
      plan_id: string;
      plan_kind: string;
      leg_index: number;
      action: string;
      chain: string;
      venue_id: string | null;
      tx_id: string | null;
      amount_micros: bigint;
      settled_amount_micros: bigint | null;
      quoted_amount_out_micros: string | null;
      status: string;
      failure_reason: string | null;
      created_at: Date;
      updated_at: Date;
      dest_chain: string | null;
      mint_tx_id: string | null;
      delivered_micros: bigint | null;
    }[]
  >`
    WITH page AS (
      SELECT p.id, p.kind, p.chain, p.created_at, p.swap
      FROM plans p
      WHERE p.wallet = ${wallet}
        AND EXISTS (SELECT 1 FROM plan_legs l WHERE l.plan_id = p.id AND l.effect <> 'none'
                    AND (l.tx_id IS NOT NULL OR l.status = 'failed'))
        AND (${afterTime}::timestamptz IS NULL
             OR (p.created_at, p.id) < (${afterTime}::timestamptz, ${afterId}::text))
      ORDER BY p.created_at DESC, p.id DESC
      LIMIT ${plans + 1}
    )
    SELECT page.id AS plan_id, page.kind AS plan_kind, l.leg_index, l.action,
           COALESCE(l.chain, page.chain) AS chain,
           l.venue_id, l.tx_id, l.amount_micros, l.settled_amount_micros,
           CASE WHEN l.effect = 'swap' THEN page.swap->>'quotedAmountOutMicros' END
             AS quoted_amount_out_micros, l.status,
           l.failure_reason, page.created_at, l.updated_at,
           b.dest_chain, b.mint_tx_id, b.delivered_micros
    FROM page JOIN plan_legs l ON l.plan_id = page.id
    -- Only the bridge legs are bridge rows (a cross-chain deposit's deposit legs are not).
    LEFT JOIN bridge_transfers b
      ON b.plan_id = page.id AND l.effect IN ('bridge_fee', 'bridge_burn')
    WHERE l.effect <> 'none' AND (l.tx_id IS NOT NULL OR l.status = 'failed')
    ORDER BY page.created_at DESC, page.id DESC, l.leg_index`;
  const planIds = [...new Set(rows.map((row) => row.plan_id))];
  const more = planIds.length > plans;
  const kept = new Set(planIds.slice(0, plans));
  const legs = rows
    .filter((row) => kept.has(row.plan_id))
    .map((row) => ({
      planId: row.plan_id,
      planKind: row.plan_kind,
      legIndex: row.leg_index,
      action: row.action,
      chain: row.chain,
      venueId: row.venue_id,
      txId: row.tx_id,
      amountMicros: row.amount_micros,
      settledAmountMicros: row.settled_amount_micros,
      quotedAmountOutMicros:
        row.quoted_amount_out_micros === null ? null : BigInt(row.quoted_amount_out_micros),
      status: row.status,
      failureReason: row.failure_reason,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      bridge:
        row.dest_chain === null
          ? null
          : {
              destChain: row.dest_chain,
              mintTxId: row.mint_tx_id,
              deliveredMicros: row.delivered_micros,
            },
    }));
  const last = legs[legs.length - 1];
  return { legs, next: more && last ? { createdAt: last.createdAt, planId: last.planId } : null };
}
