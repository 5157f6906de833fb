import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { PositionReading, VenueOnChain } from '@yieldrouter/schemas';
import { describeRpcFailure, rpcNotConfigured } from './describeRpcFailure';
import { parsePublicKey } from './parsePublicKey';
import { readTokenTotal } from './readTokenTotal';
import type { SolanaContext } from './solanaContext';

/**
 * `owner`'s position in a `router-adapter` venue: the shares are the owner's balance of the
 * venue's receipt token (`ids.receiptMint`), which the adapter issues 1:1 with USDC micros
 * (6 decimals), so `shares` are worth as many micros. Any other venue: `no_standard_reader`.
 *
 * @example
 * const reading = await readSolanaPosition(context, venue, owner, 5_000_000n);
 */
export async function readSolanaPosition(
  context: SolanaContext,
  venue: VenueOnChain,
  owner: string,
  shares: bigint,
): Promise<PositionReading> {
  const ownerKey = parsePublicKey(owner);
  if (!ownerKey) throw new InvalidChainInputError('owner', 'owner: not a base58 Solana public key');
  const receiptMint = parsePublicKey(venue.ids['receiptMint'] ?? '');
  if (venue.chain !== 'solana' || venue.standard !== 'router-adapter' || !receiptMint) {
    return {
      status: 'unavailable',
      reason: 'no_standard_reader',
      detail: `position: venue ${venue.venueId} is not a Solana router-adapter venue with ids.receiptMint`,
    };
  }
  if (context.rpc.status !== 'ok') return rpcNotConfigured('position', context.rpc.detail);
  try {
    const ownerShares = await readTokenTotal(context.rpc.connection, ownerKey, receiptMint);
    return {
      status: 'ok',
      ownerShares,
      sharesValueMicros: shares,
      ownerValueMicros: ownerShares,
      block: null,
      asOf: new Date(),
    };
  } catch (error) {
    return describeRpcFailure(error, 'position');
  }
}
