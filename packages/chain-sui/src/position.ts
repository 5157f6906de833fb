import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import type { PositionReading, VenueOnChain } from '@yieldrouter/schemas';
import { requireSuiAddress } from './address';
import { readCoinBalance } from './balances';
import { receiptCoinType } from './receiptCoinType';

/**
 * A router-adapter venue's position: the shares are the owner's balance of the venue's receipt
 * coin (venue.ids.receiptCoinType, the coin our venue legs' receipts count as shares), which the
 * adapter issues 1:1 with the USDC it holds, so `shares` in base units are worth as many micros.
 * Other venues have no standard reader here. Sui's balance read names no checkpoint: `block` is
 * null.
 *
 * @example
 * await readSuiPosition(client, venue, owner, 700_000_000n)
 * // { status: 'ok', ownerShares: 777_000_001n, sharesValueMicros: 700_000_000n, ownerValueMicros: 777_000_001n, block: null, asOf }
 */
export async function readSuiPosition(
  client: SuiJsonRpcClient | undefined,
  venue: VenueOnChain,
  owner: string,
  shares: bigint,
): Promise<PositionReading> {
  const address = requireSuiAddress('owner', owner);
  const coinType = receiptCoinType(venue);
  if (coinType === undefined) {
    return {
      status: 'unavailable',
      reason: 'no_standard_reader',
      detail: `position: venue ${venue.venueId} is not a Sui router-adapter venue with ids.receiptCoinType`,
    };
  }
  const read = await readCoinBalance(client, address, coinType, 'position');
  if (read.status !== 'ok') return read;
  return {
    status: 'ok',
    ownerShares: read.amount,
    sharesValueMicros: shares,
    ownerValueMicros: read.amount,
    block: null,
    asOf: new Date(),
  };
}
