import type { Books } from './books';
import { timeOrderedHex } from './timeOrderedId';
export const newHarvestId = (): string => `hvst_${timeOrderedHex()}`;

/** Wallets with a venue position that holds something, in byte order, in pages (harvest batch). */
export async function listStakedWallets(
  db: Books,
  { after, limit }: { readonly after?: string; readonly limit: number },
): Promise<string[]> {
  const rows = await db.$queryRaw<{ wallet: string }[]>`
    SELECT DISTINCT wallet COLLATE "C" AS wallet FROM positions
    WHERE (shares > 0 OR mark_micros > 0) AND wallet COLLATE "C" > ${after ?? ''}
    ORDER BY wallet COLLATE "C"
    LIMIT ${limit}`;
  return rows.map((row) => row.wallet);
}
