import { normalizeStructTag, normalizeSuiAddress } from '@mysten/sui/utils';
import type { MoveCallContext, ProgramValue } from './moveCalls';
import { MoveAbortError } from './moveCalls';
import { moveCoin, moveStruct, objectIdOf } from './moveTypes';
import {
  CLOCK_ID,
  CLOCK_REF,
  ensureLendingFramework,
  giveCoin,
  publicFunction,
  pureNumber,
  T0,
  T1,
  takeCoin,
  typeNameOf,
} from './lendingBed';
import { randomObjectId } from './ids';
import type { SuiFakeState } from './state';

export interface AddSuilendParameters {
  readonly usdc: string;
  /** USDC the reserve holds before any deposit (base units). */
  readonly availableAmount?: bigint;
  /**
   * Coin types of the market's reserves before USDC's (empty: USDC is reserve 0). On mainnet
   * USDC's reserve is not the first; its index is its position in `reserves`.
   */
  readonly reservesBefore?: readonly string[];
}

/** Suilend's USDC reserve as the fake runs it, with the ids `SVC_VENUE_IDS.suilend` names. */
export interface SuiFakeSuilend {
  readonly ids: {
    readonly package: string;
    readonly lendingMarket: string;
    readonly lendingMarketType: string;
    readonly reserveIndex: string;
    readonly receiptCoinType: string;
  };
  /** Borrowers pay `micros` of interest into the reserve: the CToken rate rises. */
  accrue(micros: bigint): void;
  /** USDC the owner's CTokens redeem for now (Suilend's rounding). */
  redeemValue(ctokens: bigint): bigint;
  reserve(): { available: bigint; borrowedWad: bigint; ctokenSupply: bigint };
}

const WAD = 10n ** 18n;

/**
 * Lays Suilend's main lending market with a USDC reserve into the fake, run with Suilend's
 * published semantics: `lending_market::deposit_liquidity_and_mint_ctokens<P, T>(market,
 * reserve_index, clock, Coin<T>)` → `Coin<CToken<P, T>>` minted at the reserve's ratio
 * (`total_supply / ctoken_supply`, a WAD Decimal rounded down; ctokens rounded down), emitting
 * `MintEvent`; `redeem_ctokens_and_withdraw_liquidity<P, T>(market, reserve_index, clock,
 * Coin<CToken<P, T>>, Option<RateLimiterExemption<P, T>>)` → `Coin<T>` (rounded down), emitting
 * `RedeemEvent` (`{ lending_market_id, coin_type, reserve_id, … }`, as @suilend/sdk's generated
 * structs lay them out). The `LendingMarket` object has the published field layout
 * (`reserves[i]` with `lending_market_id`, `array_index`, `coin_type`, `available_amount`,
 * `borrowed_amount`, `unclaimed_spread_fees`, `ctoken_supply`).
 */
export function addSuilend(state: SuiFakeState, parameters: AddSuilendParameters): SuiFakeSuilend {
  ensureLendingFramework(state);
  const original = normalizeSuiAddress(`0x${'a5'.repeat(32)}`);
  const latest = normalizeSuiAddress(`0x${'a6'.repeat(32)}`);
  const marketType = `${original}::suilend::MAIN_POOL`;
  const usdc = normalizeStructTag(parameters.usdc);
  const ctokenType = normalizeStructTag(`${original}::reserve::CToken<${marketType}, ${usdc}>`);
  const market = state.addSharedObject({
    type: `${original}::lending_market::LendingMarket<${marketType}>`,
  });
  const reserveId = randomObjectId();
  const others = (parameters.reservesBefore ?? []).map((type) => normalizeStructTag(type));
  const usdcIndex = BigInt(others.length);
  /** A reserve of the published layout (other reserves: empty, none of their CTokens minted). */
  const reserveObject = (
    index: number,
    coinType: string,
    state: { available: bigint; borrowedWad: bigint; ctokenSupply: bigint },
  ) => ({
    type: `${original}::reserve::Reserve<${marketType}>`,
    fields: {
      lending_market_id: market.objectId,
      array_index: String(index),
      coin_type: typeNameOf(coinType),
      available_amount: state.available.toString(),
      borrowed_amount: {
        type: `${original}::decimal::Decimal`,
        fields: { value: state.borrowedWad.toString() },
      },
      unclaimed_spread_fees: {
        type: `${original}::decimal::Decimal`,
        fields: { value: '0' },
      },
      ctoken_supply: state.ctokenSupply.toString(),
    },
  });
  const empty = { available: 0n, borrowedWad: 0n, ctokenSupply: 0n };
  let reserve = {
    available: parameters.availableAmount ?? 0n,
    borrowedWad: 0n,
    // Other depositors' CTokens, at a ratio of 1.
    ctokenSupply: parameters.availableAmount ?? 0n,
  };
  const write = () =>
    state.writeObject({
      objectId: market.objectId,
      type: `${original}::lending_market::LendingMarket<${marketType}>`,
      fields: {
        version: '7',
        reserves: [
          ...others.map((type, index) => reserveObject(index, type, empty)),
          reserveObject(others.length, usdc, reserve),
        ],
      },
    });
  write();

  /** `ctoken_ratio`: total supply over ctoken supply as a WAD Decimal, 1 when none exist. */
  const ratio = () => {
    if (reserve.ctokenSupply === 0n) return WAD;
    return (reserve.available * WAD + reserve.borrowedWad) / reserve.ctokenSupply;
  };
  const redeemValue = (ctokens: bigint) => (ctokens * ratio()) / WAD;

  const checkCall = (context: MoveCallContext, fn: string): ProgramValue[] => {
    const abort = () => new MoveAbortError(latest, 'lending_market', fn, 3);
    const [marketArg, index, clock] = context.args;
    const [p = '', t = ''] = context.typeArguments.map((type) => normalizeStructTag(type));
    if (
      objectIdOf(marketArg) !== market.objectId ||
      objectIdOf(clock) !== CLOCK_ID ||
      pureNumber(index, 'u64', abort) !== usdcIndex ||
      p !== normalizeStructTag(marketType) ||
      t !== usdc
    ) {
      throw abort();
    }
    return context.args.slice(3);
  };

  const MARKET = {
    MutableReference: moveStruct(original, 'lending_market', 'LendingMarket', [T0]),
  };
  const CTOKEN = moveStruct(original, 'reserve', 'CToken', [T0, T1]);
  const EXEMPTION = moveStruct(original, 'lending_market', 'RateLimiterExemption', [T0, T1]);
  state.defineFakeMoveFunction(`${latest}::lending_market::deposit_liquidity_and_mint_ctokens`, {
    normalized: publicFunction(2, [MARKET, 'U64', CLOCK_REF, moveCoin(T1)], [moveCoin(CTOKEN)]),
    run: (context) => {
      const [coin] = checkCall(context, 'deposit_liquidity_and_mint_ctokens');
      const abort = () => new MoveAbortError(latest, 'lending_market', 'deposit', 2);
      const liquidity = takeCoin(coin, usdc, abort);
      const ctokens = (liquidity * WAD) / ratio();
      if (ctokens === 0n) throw abort();
      context.stage(() => {
        reserve = {
          ...reserve,
          available: reserve.available + liquidity,
          ctokenSupply: reserve.ctokenSupply + ctokens,
        };
        write();
      });
      context.emit({
        type: `${original}::lending_market::MintEvent`,
        parsedJson: {
          lending_market_id: market.objectId,
          coin_type: typeNameOf(usdc).fields,
          reserve_id: reserveId,
          liquidity_amount: liquidity.toString(),
          ctoken_amount: ctokens.toString(),
        },
      });
      return [giveCoin(context, ctokenType, ctokens)];
    },
  });
  state.defineFakeMoveFunction(`${latest}::lending_market::redeem_ctokens_and_withdraw_liquidity`, {
    normalized: publicFunction(
      2,
      [
        MARKET,
        'U64',
        CLOCK_REF,
        moveCoin(CTOKEN),
        moveStruct('0x1', 'option', 'Option', [EXEMPTION]),
      ],
      [moveCoin(T1)],
    ),
    run: (context) => {
      const [coin, exemption] = checkCall(context, 'redeem_ctokens_and_withdraw_liquidity');
      const abort = () => new MoveAbortError(latest, 'lending_market', 'redeem', 2);
      if (exemption?.kind !== 'pure') throw abort();
      const ctokens = takeCoin(coin, ctokenType, abort);
      const liquidity = redeemValue(ctokens);
      if (liquidity === 0n || liquidity > reserve.available) throw abort();
      context.stage(() => {
        reserve = {
          ...reserve,
          available: reserve.available - liquidity,
          ctokenSupply: reserve.ctokenSupply - ctokens,
        };
        write();
      });
      context.emit({
        type: `${original}::lending_market::RedeemEvent`,
        parsedJson: {
          lending_market_id: market.objectId,
          coin_type: typeNameOf(usdc).fields,
          reserve_id: reserveId,
          ctoken_amount: ctokens.toString(),
          liquidity_amount: liquidity.toString(),
        },
      });
      return [giveCoin(context, usdc, liquidity)];
    },
  });
  return {
    ids: {
      package: latest,
      lendingMarket: market.objectId,
      lendingMarketType: marketType,
      reserveIndex: usdcIndex.toString(),
      receiptCoinType: ctokenType,
    },
    accrue(micros) {
      // Interest owed by borrowers is part of the reserve's total supply.
      reserve = { ...reserve, borrowedWad: reserve.borrowedWad + micros * WAD };
      write();
    },
    redeemValue,
    reserve: () => reserve,
  };
}
