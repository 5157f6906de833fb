import { AccountLayout, MintLayout, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import type { Connection, PublicKey } from '@solana/web3.js';
import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { PositionReading, VenueOnChain } from '@yieldrouter/schemas';
import { SolanaBadResponseError, describeRpcFailure, rpcNotConfigured } from './describeRpcFailure';
import { parsePublicKey } from './parsePublicKey';
import { readTokenTotal } from './readTokenTotal';
import type { SolanaContext } from './solanaContext';

/** The venue's exchange rate: USDC in its reserve over receipt tokens outstanding. */
interface ExchangeRate {
  readonly reserveMicros: bigint;
  readonly receiptSupply: bigint;
}

/** Reserve and receipt mint in one `getMultipleAccounts` (one slot), each decoded and checked. */
async function readExchangeRate(
  connection: Connection,
  reserve: PublicKey,
  receiptMint: PublicKey,
  usdcMint: PublicKey | undefined,
): Promise<ExchangeRate> {
  const [reserveAccount, mintAccount] = await connection.getMultipleAccountsInfo(
    [reserve, receiptMint],
    'confirmed',
  );
  if (!reserveAccount?.owner.equals(TOKEN_PROGRAM_ID) || reserveAccount.data.length < 165) {
    throw new SolanaBadResponseError(`reserve ${reserve.toBase58()} is not a token account`);
  }
  if (!mintAccount?.owner.equals(TOKEN_PROGRAM_ID) || mintAccount.data.length < 82) {
    throw new SolanaBadResponseError(`receipt mint ${receiptMint.toBase58()} is not a mint`);
  }
  const decoded = AccountLayout.decode(reserveAccount.data);
  if (usdcMint && !decoded.mint.equals(usdcMint)) {
    throw new SolanaBadResponseError(`reserve ${reserve.toBase58()} does not hold USDC`);
  }
  return {
    reserveMicros: decoded.amount,
    receiptSupply: MintLayout.decode(mintAccount.data).supply,
  };
}

/** What `shares` receipt tokens are worth in USDC micros at `rate`, rounded down. */
const valueOf = (shares: bigint, rate: ExchangeRate): bigint =>
  rate.receiptSupply === 0n ? 0n : (shares * rate.reserveMicros) / rate.receiptSupply;

/**
 * `owner`'s position in a `router-adapter` venue: the shares are the owner's balance of the
 * venue's receipt token (`ids.receiptMint`), valued at the venue's exchange rate, the USDC in its
 * reserve (`ids.reserve`) over the receipt tokens outstanding (rounded down). A venue whose
 * reserve holds all its assets (our test venue does; yield arrives in the reserve) is valued
 * exactly; a venue lending its reserve out needs a reader of its own. Any other venue:
 * `no_standard_reader`.
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
  const reserve = parsePublicKey(venue.ids['reserve'] ?? '');
  if (venue.chain !== 'solana' || venue.standard !== 'router-adapter' || !receiptMint || !reserve) {
    return {
      status: 'unavailable',
      reason: 'no_standard_reader',
      detail: `position: venue ${venue.venueId} is not a Solana router-adapter venue with ids.receiptMint and ids.reserve`,
    };
  }
  if (context.rpc.status !== 'ok') return rpcNotConfigured('position', context.rpc.detail);
  const { connection } = context.rpc;
  try {
    const [ownerShares, rate] = await Promise.all([
      readTokenTotal(connection, ownerKey, receiptMint),
      readExchangeRate(connection, reserve, receiptMint, context.usdcMint),
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
