import { normalizeStructTag } from '@mysten/sui/utils';
import type { VenueOnChain } from '@yieldrouter/schemas';

/**
 * The canonical coin type of a Sui router-adapter venue's shares (`ids.receiptCoinType`), or
 * undefined for another kind of venue or a missing or malformed type.
 *
 * @example
 * receiptCoinType({ venueId: 'v', chain: 'sui', standard: 'router-adapter', ids: { receiptCoinType: '0x2::vault::RECEIPT' } })
 * // '0x0000…0002::vault::RECEIPT'
 */
export function receiptCoinType(venue: VenueOnChain): string | undefined {
  if (venue.chain !== 'sui' || venue.standard !== 'router-adapter') return undefined;
  const type = venue.ids.receiptCoinType;
  if (type === undefined) return undefined;
  try {
    return normalizeStructTag(type);
  } catch {
    return undefined;
  }
}
