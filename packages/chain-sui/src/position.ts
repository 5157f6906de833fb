import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import type { PositionReading, VenueOnChain } from '@yieldrouter/schemas';
import { requireSuiAddress } from './address';
import { readCoinBalance } from './balances';
import type { ResolvedSuiConfig } from './config';
import { usdcNotConfigured } from './rpc';
import { naviValue, readNaviSupply, receiptValue } from './venues/readVenueState';
import { resolveSuiVenue } from './venues/suiVenue';
import { readReceiptRate } from './venues/withdrawReceipts';

/**
 * A Sui venue's position, valued from the protocol's own state (never 1:1):
 * - Suilend, Scallop: `shares` are receipt units (CToken, MarketCoin); the owner's shares are
 *   their receipt coin balance; value = shares × the receipt's exchange rate, rounded down as
 *   the protocol rounds a redemption.
 * - Navi: `shares` are Navi's scaled supply units; the owner's are their entry in Navi's storage;
 *   value = scaled × supply index / RAY, from 9 to 6 decimals, rounded down.
 * Sui's object reads name no checkpoint: `block` is null.
 *
 * @example
 * await readSuiPosition(client, config, venue, owner, 9_523_809n)
 * // { status: 'ok', ownerShares: 9_523_809n, sharesValueMicros: 10_049_999n, ownerValueMicros: 10_049_999n, block: null, asOf }
 */
export async function readSuiPosition(
  client: SuiJsonRpcClient | undefined,
  config: ResolvedSuiConfig,
  venue: VenueOnChain,
  owner: string,
  shares: bigint,
): Promise<PositionReading> {
  const address = requireSuiAddress('owner', owner);
  const usdc = config.usdcCoinType;
  if (usdc === undefined) return usdcNotConfigured('position');
  const resolved = resolveSuiVenue(venue, usdc);
  if (resolved.status === 'blocked') {
    return {
      status: 'unavailable',
      reason: 'no_standard_reader',
      detail: `position: ${resolved.blockers.map((blocker) => blocker.message).join(' ')}`,
    };
  }
  const target = resolved.venue;
  if (target.kind === 'navi') {
    const supply = await readNaviSupply(client, target, address);
    if (supply.status !== 'ok') return supply;
    return {
      status: 'ok',
      ownerShares: supply.scaledBalance,
      sharesValueMicros: naviValue(shares, supply.supplyIndex),
      ownerValueMicros: naviValue(supply.scaledBalance, supply.supplyIndex),
      block: null,
      asOf: new Date(),
    };
  }
  const [rate, balance] = await Promise.all([
    readReceiptRate(client, target, usdc),
    readCoinBalance(client, address, target.receiptCoinType, 'position'),
  ]);
  if (!rate) throw new Error('unreachable: receipt venues have a rate');
  if (rate.status !== 'ok') return rate;
  if (balance.status !== 'ok') return balance;
  return {
    status: 'ok',
    ownerShares: balance.amount,
    sharesValueMicros: receiptValue(shares, rate),
    ownerValueMicros: receiptValue(balance.amount, rate),
    block: null,
    asOf: new Date(),
  };
}
