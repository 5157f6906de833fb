import type { Transaction, TransactionObjectArgument } from '@mysten/sui/transactions';
import { normalizeStructTag } from '@mysten/sui/utils';
import type { SuiVenue, SuilendVenue } from './suiVenue';
import { typePackage } from './suiVenue';

/** Sui's system objects every venue call names: the Clock and, for Navi's withdraw, the system state. */
export const SUI_CLOCK_ID = '0x6';
export const SUI_SYSTEM_STATE_ID = '0x5';

/** How the leg puts a shared object into the transaction (by id for wallets, by ref for bytes). */
export type SharedObjectInput = (objectId: string, mutable: boolean) => TransactionObjectArgument;

/** What every venue call of a leg needs besides the coins. */
export interface VenueCallContext {
  readonly tx: Transaction;
  readonly venue: SuiVenue;
  readonly usdc: string;
  readonly owner: string;
  readonly object: SharedObjectInput;
}

/** The Move call's target in the venue's (latest) package. */
const target = (venue: SuiVenue, module: string, fn: string) =>
  `${venue.packageId}::${module}::${fn}` as const;

/** The located USDC reserve index (appendVenueLeg reads it from the market before any call). */
function suilendReserveIndex(venue: SuilendVenue): bigint {
  if (venue.reserveIndex === undefined) {
    throw new Error('unreachable: a Suilend call needs the reserve index located first');
  }
  return venue.reserveIndex;
}

/**
 * Deposits `coin` (USDC) into the venue; a receipt coin (Suilend's CToken, Scallop's MarketCoin)
 * goes to the owner. Navi keeps the balance in its storage, so nothing comes back.
 * - Suilend: `lending_market::deposit_liquidity_and_mint_ctokens<P, USDC>(market, reserve_index, clock, coin)`
 * - Navi: `incentive_v3::entry_deposit<USDC>(clock, storage, pool, asset_id, coin, amount, incentive_v2, incentive_v3)`
 * - Scallop: `mint::mint<USDC>(version, market, coin, clock)`
 */
export function appendVenueDeposit(
  context: VenueCallContext,
  coin: TransactionObjectArgument,
  amount: bigint,
): void {
  const { tx, venue, usdc, owner, object } = context;
  const clock = object(SUI_CLOCK_ID, false);
  if (venue.kind === 'suilend') {
    const [ctokens] = tx.moveCall({
      target: target(venue, 'lending_market', 'deposit_liquidity_and_mint_ctokens'),
      typeArguments: [venue.lendingMarketType, usdc],
      arguments: [
        object(venue.lendingMarket, true),
        tx.pure.u64(suilendReserveIndex(venue)),
        clock,
        coin,
      ],
    });
    if (!ctokens) throw new Error('unreachable: a Move call has a result');
    tx.transferObjects([ctokens], tx.pure.address(owner));
  } else if (venue.kind === 'navi') {
    tx.moveCall({
      target: target(venue, 'incentive_v3', 'entry_deposit'),
      typeArguments: [usdc],
      arguments: [
        clock,
        object(venue.storage, true),
        object(venue.pool, true),
        tx.pure.u8(venue.assetId),
        coin,
        tx.pure.u64(amount),
        object(venue.incentiveV2, true),
        object(venue.incentiveV3, true),
      ],
    });
  } else {
    // The whole result, as Scallop's builder hands it on (Suilend's destructures it).
    const marketCoin = tx.moveCall({
      target: target(venue, 'mint', 'mint'),
      typeArguments: [usdc],
      arguments: [object(venue.version, false), object(venue.market, true), coin, clock],
    });
    tx.transferObjects([marketCoin], tx.pure.address(owner));
  }
}

/**
 * Takes USDC back out of the venue to the owner: Suilend and Scallop burn `receipt` (the owner's
 * receipt coins already merged and split to the amount to redeem); Navi withdraws `amount` USDC
 * from the owner's balance in its storage.
 * - Suilend: `0x1::option::none<RateLimiterExemption<P, USDC>>()`, then
 *   `lending_market::redeem_ctokens_and_withdraw_liquidity<P, USDC>(market, reserve_index, clock, ctokens, none)`
 * - Navi: `incentive_v3::withdraw_v2<USDC>(clock, oracle, storage, pool, asset_id, amount, incentive_v2, incentive_v3, system_state)`,
 *   then `0x2::coin::from_balance<USDC>`
 * - Scallop: `redeem::redeem<USDC>(version, market, market_coin, clock)`
 *
 * With `skim`, the protocol's share is split off the USDC the venue paid and sent to the
 * treasury (`0x2` SplitCoins + TransferObjects) before the rest goes to the owner: one
 * transaction, so the owner cannot sign the withdrawal without it.
 */
export function appendVenueWithdraw(
  context: VenueCallContext,
  withdrawal: {
    readonly receipt: TransactionObjectArgument | undefined;
    readonly amount: bigint;
    readonly skim?: { readonly recipient: string; readonly amount: bigint } | undefined;
  },
): void {
  const { tx, venue, usdc, owner, object } = context;
  const clock = object(SUI_CLOCK_ID, false);
  let usdcCoin: TransactionObjectArgument | undefined;
  if (venue.kind === 'navi') {
    const [balance] = tx.moveCall({
      target: target(venue, 'incentive_v3', 'withdraw_v2'),
      typeArguments: [usdc],
      arguments: [
        clock,
        object(venue.priceOracle, false),
        object(venue.storage, true),
        object(venue.pool, true),
        tx.pure.u8(venue.assetId),
        tx.pure.u64(withdrawal.amount),
        object(venue.incentiveV2, true),
        object(venue.incentiveV3, true),
        object(SUI_SYSTEM_STATE_ID, true),
      ],
    });
    if (!balance) throw new Error('unreachable: a Move call has a result');
    // The whole result, as Navi's withdrawCoinPTB returns it.
    usdcCoin = tx.moveCall({
      target: '0x2::coin::from_balance',
      typeArguments: [usdc],
      arguments: [balance],
    });
  } else {
    const receipt = withdrawal.receipt;
    if (!receipt) throw new Error(`a ${venue.kind} withdrawal burns the owner's receipt coin`);
    if (venue.kind === 'suilend') {
      const exemption = normalizeStructTag(
        `${typePackage(venue.lendingMarketType)}::lending_market::RateLimiterExemption<${venue.lendingMarketType}, ${usdc}>`,
      );
      // The whole result, as Suilend's generated `option()` helper passes it.
      const none = tx.moveCall({
        target: '0x1::option::none',
        typeArguments: [exemption],
        arguments: [],
      });
      [usdcCoin] = tx.moveCall({
        target: target(venue, 'lending_market', 'redeem_ctokens_and_withdraw_liquidity'),
        typeArguments: [venue.lendingMarketType, usdc],
        arguments: [
          object(venue.lendingMarket, true),
          tx.pure.u64(suilendReserveIndex(venue)),
          clock,
          receipt,
          none,
        ],
      });
    } else {
      usdcCoin = tx.moveCall({
        target: target(venue, 'redeem', 'redeem'),
        typeArguments: [usdc],
        arguments: [object(venue.version, false), object(venue.market, true), receipt, clock],
      });
    }
  }
  if (!usdcCoin) throw new Error('unreachable: a Move call has a result');
  const skim = withdrawal.skim;
  if (skim && skim.amount > 0n) {
    const [skimCoin] = tx.splitCoins(usdcCoin, [tx.pure.u64(skim.amount)]);
    if (!skimCoin) throw new Error('unreachable: SplitCoins has a result');
    tx.transferObjects([skimCoin], tx.pure.address(skim.recipient));
  }
  tx.transferObjects([usdcCoin], tx.pure.address(owner));
}
