import type { Books } from './books';
import { BOOKS_ASSET, keyOf } from './journal';
import type { AccountRef } from './journal';

/**
 * One account's balance (0 when the account was never posted to); a system account's is its row
 * plus its shards (migration 0050), summed here.
 */
export async function readAccountBalance(db: Books, account: AccountRef): Promise<bigint> {
  const key = keyOf(account);
  const rows = await db.$queryRaw<{ balance: bigint }[]>`
    SELECT balance_micros AS balance FROM ledger_balances
    WHERE wallet IS NOT DISTINCT FROM ${key.wallet} AND chain = ${key.chain}
      AND bucket = ${key.bucket}`;
  return rows[0]?.balance ?? 0n;
}

/** A wallet's holding of an asset other than USDC (what settled swaps brought in). */
export interface AssetBalance {
  readonly chain: string;
  readonly asset: string;
  /** In the asset's own base units. */
  readonly balance: bigint;
}

/** A wallet's non-zero balances in assets other than the books' unit, by chain and asset. */
export async function readAssetBalances(db: Books, wallet: string): Promise<AssetBalance[]> {
  const rows = await db.$queryRaw<{ chain: string; asset: string; balance: bigint }[]>`
    SELECT chain, asset, balance_micros AS balance FROM ledger_accounts
    WHERE wallet = ${wallet} AND asset <> ${BOOKS_ASSET} AND balance_micros <> 0
    ORDER BY chain, asset`;
  return rows.map((row) => ({ chain: row.chain, asset: row.asset, balance: row.balance }));
}

/**
 * Folds the system accounts' shards of backends not writing now into one row per account
 * (`ledger_fold_balance_shards`, migration 0050), balances unchanged: shard rows stay about one
 * per live backend. Returns the number of shard rows folded.
 */
export async function foldBalanceShards(db: Books): Promise<number> {
  const rows = await db.$queryRaw<{ folded: number }[]>`
    SELECT ledger_fold_balance_shards() AS folded`;
  return rows[0]?.folded ?? 0;
}
