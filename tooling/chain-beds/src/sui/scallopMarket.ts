import { deriveDynamicFieldID, normalizeStructTag, normalizeSuiAddress } from '@mysten/sui/utils';
import { bcs } from '@mysten/sui/bcs';
import type { MoveCallContext, ProgramValue } from './moveCalls';
import { MoveAbortError } from './moveCalls';
import { moveCoin, moveStruct, objectIdOf } from './moveTypes';
import {
  CLOCK_ID,
  CLOCK_REF,
  ensureLendingFramework,
  giveCoin,
  publicFunction,
  T0,
  takeCoin,
  typeNameOf,
} from './lendingBed';
import { randomObjectId } from './ids';
import type { SuiFakeState } from './state';

export interface AddScallopParameters {
  readonly usdc: string;
  /** Cash other lenders keep in the market (their MarketCoins minted 1:1). */
  readonly cash?: bigint;
}

/** Scallop's USDC market as the fake runs it, with the ids `SVC_VENUE_IDS.scallop` names. */
export interface SuiFakeScallop {
  readonly ids: {
    readonly package: string;
    readonly version: string;
    readonly market: string;
    readonly balanceSheet: string;
    readonly receiptCoinType: string;
  };
  /** Borrowers owe `micros` more interest: the MarketCoin rate rises. */
  accrue(micros: bigint): void;
  /** USDC `marketCoins` redeem for now (rounded down). */
  redeemValue(marketCoins: bigint): bigint;
  balanceSheet(): { cash: bigint; debt: bigint; revenue: bigint; marketCoinSupply: bigint };
}

/**
 * Lays Scallop's market with a USDC pool into the fake, run with Scallop's published semantics:
 * `mint::mint<T>(version, market, Coin<T>, clock)` → `Coin<MarketCoin<T>>` at `amount × supply /
 * (cash + debt − revenue)` (1:1 when none exist; rounded down), emitting `mint::MintEvent`;
 * `redeem::redeem<T>(version, market, Coin<MarketCoin<T>>, clock)` → `Coin<T>` at `coins × (cash
 * + debt − revenue) / supply` (rounded down), emitting `redeem::RedeemEvent`. USDC's
 * `BalanceSheet` is a dynamic field of the vault's `balance_sheets` with the published layout.
 */
export function addScallop(state: SuiFakeState, parameters: AddScallopParameters): SuiFakeScallop {
  ensureLendingFramework(state);
  const original = normalizeSuiAddress(`0x${'ef'.repeat(32)}`);
  const latest = normalizeSuiAddress(`0x${'de'.repeat(32)}`);
  const usdc = normalizeStructTag(parameters.usdc);
  const marketCoinType = normalizeStructTag(`${original}::reserve::MarketCoin<${usdc}>`);
  const version = state.addSharedObject({ type: `${original}::version::Version` });
  const market = state.addSharedObject({ type: `${original}::market::Market` });
  const sheetsTable = randomObjectId();
  const balanceSheet = deriveDynamicFieldID(
    sheetsTable,
    '0x1::type_name::TypeName',
    bcs.string().serialize(usdc.slice(2)).toBytes(),
  );
  let sheet = {
    cash: parameters.cash ?? 0n,
    debt: 0n,
    revenue: 0n,
    marketCoinSupply: parameters.cash ?? 0n,
  };
  const write = () =>
    state.writeObject({
      objectId: balanceSheet,
      type: `0x2::dynamic_field::Field<0x1::type_name::TypeName, ${original}::reserve::BalanceSheet>`,
      owner: { ObjectOwner: sheetsTable },
      fields: {
        name: typeNameOf(usdc),
        value: {
          type: `${original}::reserve::BalanceSheet`,
          fields: {
            cash: sheet.cash.toString(),
            debt: sheet.debt.toString(),
            revenue: sheet.revenue.toString(),
            market_coin_supply: sheet.marketCoinSupply.toString(),
          },
        },
      },
    });
  write();
  const total = () => sheet.cash + sheet.debt - sheet.revenue;
  const redeemValue = (coins: bigint) =>
    sheet.marketCoinSupply === 0n ? coins : (coins * total()) / sheet.marketCoinSupply;

  const check = (
    context: MoveCallContext,
    module: string,
    fn: string,
  ): ProgramValue | undefined => {
    const [versionArg, marketArg, coin, clock] = context.args;
    const [type = ''] = context.typeArguments.map((value) => normalizeStructTag(value));
    if (
      objectIdOf(versionArg) !== version.objectId ||
      objectIdOf(marketArg) !== market.objectId ||
      objectIdOf(clock) !== CLOCK_ID ||
      type !== usdc
    ) {
      throw new MoveAbortError(latest, module, fn, 1);
    }
    return coin;
  };
  const VERSION = { Reference: moveStruct(original, 'version', 'Version') };
  const MARKET = { MutableReference: moveStruct(original, 'market', 'Market') };
  const MARKET_COIN = moveStruct(original, 'reserve', 'MarketCoin', [T0]);
  state.defineFakeMoveFunction(`${latest}::mint::mint`, {
    normalized: publicFunction(
      1,
      [VERSION, MARKET, moveCoin(T0), CLOCK_REF],
      [moveCoin(MARKET_COIN)],
    ),
    run: (context) => {
      const abort = () => new MoveAbortError(latest, 'mint', 'mint', 2);
      const amount = takeCoin(check(context, 'mint', 'mint'), usdc, abort);
      const minted =
        sheet.marketCoinSupply === 0n ? amount : (amount * sheet.marketCoinSupply) / total();
      if (minted === 0n) throw abort();
      const owner = normalizeSuiAddress(context.sender);
      context.stage(() => {
        sheet = {
          ...sheet,
          cash: sheet.cash + amount,
          marketCoinSupply: sheet.marketCoinSupply + minted,
        };
        write();
      });
      context.emit({
        type: `${original}::mint::MintEvent`,
        parsedJson: {
          minter: owner,
          deposit_asset: typeNameOf(usdc).fields,
          deposit_amount: amount.toString(),
          mint_asset: typeNameOf(marketCoinType).fields,
          mint_amount: minted.toString(),
          time: '0',
        },
      });
      return [giveCoin(context, marketCoinType, minted)];
    },
  });
  state.defineFakeMoveFunction(`${latest}::redeem::redeem`, {
    normalized: publicFunction(
      1,
      [VERSION, MARKET, moveCoin(MARKET_COIN), CLOCK_REF],
      [moveCoin(T0)],
    ),
    run: (context) => {
      const abort = () => new MoveAbortError(latest, 'redeem', 'redeem', 2);
      const coins = takeCoin(check(context, 'redeem', 'redeem'), marketCoinType, abort);
      const amount = redeemValue(coins);
      if (amount === 0n || amount > sheet.cash) throw abort();
      const owner = normalizeSuiAddress(context.sender);
      context.stage(() => {
        sheet = {
          ...sheet,
          cash: sheet.cash - amount,
          marketCoinSupply: sheet.marketCoinSupply - coins,
        };
        write();
      });
      context.emit({
        type: `${original}::redeem::RedeemEvent`,
        parsedJson: {
          redeemer: owner,
          withdraw_asset: typeNameOf(usdc).fields,
          withdraw_amount: amount.toString(),
          burn_asset: typeNameOf(marketCoinType).fields,
          burn_amount: coins.toString(),
          time: '0',
        },
      });
      return [giveCoin(context, usdc, amount)];
    },
  });
  return {
    ids: {
      package: latest,
      version: version.objectId,
      market: market.objectId,
      balanceSheet,
      receiptCoinType: marketCoinType,
    },
    accrue(micros) {
      sheet = { ...sheet, debt: sheet.debt + micros };
      write();
    },
    redeemValue,
    balanceSheet: () => sheet,
  };
}
