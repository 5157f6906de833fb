import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { PositionReading, VenueOnChain } from '@yieldrouter/schemas';
import { describeRpcFailure, rpcNotConfigured } from './describeRpcFailure';
import { venueProtocolKeys } from './legKeys';
import { parsePublicKey } from './parsePublicKey';
import { readTokenTotal } from './readTokenTotal';
import type { SolanaContext } from './solanaContext';
import type { VenueExchangeRate } from './venues/solanaVenueProtocol';

/** What `shares` receipt tokens are worth in USDC micros at `rate`, rounded down. */
const valueOf = (shares: bigint, rate: VenueExchangeRate): bigint =>
  rate.supply === 0n ? 0n : (shares * rate.liquidity) / rate.supply;

/**
 * `owner`'s position in a `router-adapter` venue: the shares are the owner's balance of the
 * receipt token its protocol mints (or, with no receipt token, the shares its own account holds:
 * `readOwnerShares`), valued (rounded down) at the exchange rate the protocol's own state gives
 * (`SolanaVenueProtocol.readExchangeRate`: docs/venues/solana.md). A venue with no protocol
 * adapter or a missing id: `no_standard_reader`.
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
  const keys = venueProtocolKeys(venue);
  if (keys.status === 'blocked') {
    const missing = keys.blockers.map((blocker) => blocker.field ?? blocker.code).join(', ');
    return {
      status: 'unavailable',
      reason: 'no_standard_reader',
      detail: `position: venue ${venue.venueId} is not a configured Solana router-adapter venue (${missing})`,
    };
  }
  const { protocol, ids } = keys;
  if (context.rpc.status !== 'ok') return rpcNotConfigured('position', context.rpc.detail);
  const { connection } = context.rpc;
  const held = (): Promise<bigint> => {
    if (protocol.readOwnerShares) return protocol.readOwnerShares(connection, ownerKey, ids);
    if (!protocol.receiptMint) throw new RangeError(`${protocol.name} names no receipt`);
    return readTokenTotal(connection, ownerKey, protocol.receiptMint(ids));
  };
  try {
    const [ownerShares, rate] = await Promise.all([
      held(),
      protocol.readExchangeRate(connection, ids, context.usdcMint),
    ]);
    return {
      status: 'ok',
      ownerShares,
      sharesValueMicros: valueOf(shares, rate),
      ownerValueMicros: valueOf(ownerShares, rate),
      block: null,
      asOf: new Date(),
    };
  } catch (error) {
    return describeRpcFailure(error, 'position');
  }
}
