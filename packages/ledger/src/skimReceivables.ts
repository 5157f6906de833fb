import type { Books } from './books';

/**
 * A withdraw plan whose skim the treasury has not received (issue #46): what its entries owe to
 * the chain's `fees:receivable` (migration 0055), with the plan's owner. Reported by
 * reconciliation until the skim leg's receipt pays it; never written off.
 */
export interface OpenSkimReceivable {
  readonly planId: string;
  readonly chain: string;
  readonly owner: string | null;
  readonly owedMicros: bigint;
}

interface ReceivableRow {
  plan_id: string;
  chain: string;
  owner: string | null;
  owed: string;
}

/** Every plan with a receivable that is not zero, in (chain, plan) order. */
export async function readOpenSkimReceivables(
  db: Books,
  limit = 10_000,
): Promise<OpenSkimReceivable[]> {
  const rows = await db.$queryRaw<ReceivableRow[]>`
    SELECT e.plan_id, a.chain, p.owner, SUM(po.amount_micros)::text AS owed
    FROM ledger_accounts a
    JOIN postings po ON po.account_id = a.id
    JOIN journal_entries e ON e.id = po.entry_id
    LEFT JOIN plans p ON p.id = e.plan_id
    WHERE a.kind = 'system' AND a.bucket = 'fees:receivable'
    GROUP BY e.plan_id, a.chain, p.owner
    HAVING SUM(po.amount_micros) <> 0
    ORDER BY a.chain, e.plan_id
    LIMIT ${limit}`;
  return rows.map((row) => ({
    planId: row.plan_id,
    chain: row.chain,
    owner: row.owner,
    owedMicros: BigInt(row.owed),
  }));
}

/**
 * What the books say each chain's treasury received, per chain: confirmed `skim` legs' settled
 * amounts (EVM) plus the skims paid inside an exit's own transaction (`skim_micros`, 0066: the
 * Solana router's, a Sui withdrawal's split).
 */
export async function readTreasuryReceipts(db: Books): Promise<Map<string, bigint>> {
  const rows = await db.$queryRaw<{ chain: string; received: string }[]>`
    SELECT COALESCE(l.chain, p.chain) AS chain,
           SUM(CASE WHEN l.effect = 'skim' THEN l.settled_amount_micros
                    ELSE l.skim_micros END)::text AS received
    FROM plan_legs l JOIN plans p ON p.id = l.plan_id
    WHERE l.status = 'confirmed' AND (l.effect = 'skim' OR l.skim_micros IS NOT NULL)
    GROUP BY 1`;
  return new Map(rows.map((row) => [row.chain, BigInt(row.received)]));
}
