import { bcs } from '@mysten/sui/bcs';
import { deriveDynamicFieldID, normalizeStructTag, normalizeSuiAddress } from '@mysten/sui/utils';
import type { MoveCallContext } from './moveCalls';
import { MoveAbortError } from './moveCalls';
import { moveCoin, moveStruct, objectIdOf } from './moveTypes';
import {
  CLOCK_ID,
  CLOCK_REF,
  ensureLendingFramework,
  giveCoin,
  publicFunction,
  pureNumber,
  SYSTEM_STATE_ID,
  T0,
  takeCoin,
} from './lendingBed';
import { randomObjectId } from './ids';
import type { SuiFakeState } from './state';

export interface AddNaviParameters {
  readonly usdc: string;
  /** USDC's asset id in Navi's storage (10 on mainnet). */
  readonly assetId?: number;
}

/** Navi's USDC pool as the fake runs it, with the ids `SVC_VENUE_IDS.navi` names. */
export interface SuiFakeNavi {
  readonly ids: {
    readonly package: string;
    readonly storage: string;
    readonly pool: string;
    readonly assetId: string;
    readonly incentiveV2: string;
    readonly incentiveV3: string;
    readonly priceOracle: string;
    readonly reserve: string;
    readonly supplyBalances: string;
    readonly lendingCorePackage: string;
  };
  /** The supply index rises by `numerator / denominator` of itself (interest accrued). */
  accrue(numerator: bigint, denominator: bigint): void;
  supplyIndex(): bigint;
  scaledBalance(owner: string): bigint;
  /** The owner's balance in micros (scaled × index, 9 → 6 decimals, rounded down). */
  balanceValue(owner: string): bigint;
}

const RAY = 10n ** 27n;
const SCALE = 1_000n;
const rayDiv = (a: bigint, b: bigint) => (a * RAY + b / 2n) / b;

/**
 * Lays Navi's lending core with a USDC pool into the fake, run with Navi's published semantics:
 * `incentive_v3::entry_deposit<T>(clock, storage, pool, asset, Coin<T>, amount, incentive_v2,
 * incentive_v3)` adds `ray_div(amount × 10³, supply_index)` to the sender's scaled balance
 * (Navi keeps 9 decimals) and emits `lending::DepositEvent`; `incentive_v3::withdraw_v2<T>(clock,
 * oracle, storage, pool, asset, amount, incentive_v2, incentive_v3, system_state)` → `Balance<T>`
 * takes it back (at most the owner's balance) and emits `lending::WithdrawEvent`. The reserve's
 * `ReserveData` and the owner's `user_state` entry are dynamic-field objects with the published
 * layouts (`current_supply_index`; `Field<address, u256>`).
 */
export function addNavi(state: SuiFakeState, parameters: AddNaviParameters): SuiFakeNavi {
  ensureLendingFramework(state);
  const lendingCore = normalizeSuiAddress(`0x${'d8'.repeat(32)}`);
  const latest = normalizeSuiAddress(`0x${'d9'.repeat(32)}`);
  const usdc = normalizeStructTag(parameters.usdc);
  const assetId = parameters.assetId ?? 10;
  const storage = state.addSharedObject({ type: `${lendingCore}::storage::Storage` });
  const pool = state.addSharedObject({ type: `${lendingCore}::pool::Pool<${usdc}>` });
  const incentiveV2 = state.addSharedObject({ type: `${latest}::incentive_v2::Incentive` });
  const incentiveV3 = state.addSharedObject({ type: `${latest}::incentive_v3::Incentive` });
  const oracle = state.addSharedObject({ type: `${latest}::oracle::PriceOracle` });
  const reserveId = randomObjectId();
  const supplyBalances = randomObjectId();
  let supplyIndex = RAY;
  const balances = new Map<string, bigint>();

  const writeReserve = () =>
    state.writeObject({
      objectId: reserveId,
      type: `0x2::dynamic_field::Field<u8, ${lendingCore}::storage::ReserveData>`,
      owner: { ObjectOwner: storage.objectId },
      fields: {
        name: assetId,
        value: {
          type: `${lendingCore}::storage::ReserveData`,
          fields: {
            id: assetId,
            coin_type: usdc.slice(2),
            current_supply_index: supplyIndex.toString(),
            supply_balance: {
              type: `${lendingCore}::storage::TokenBalance`,
              fields: {
                user_state: {
                  type: '0x2::table::Table<address, u256>',
                  fields: { id: { id: supplyBalances } },
                },
              },
            },
          },
        },
      },
    });
  writeReserve();
  const writeBalance = (owner: string) =>
    state.writeObject({
      objectId: deriveDynamicFieldID(
        supplyBalances,
        'address',
        bcs.Address.serialize(owner).toBytes(),
      ),
      type: '0x2::dynamic_field::Field<address, u256>',
      owner: { ObjectOwner: supplyBalances },
      fields: { name: owner, value: (balances.get(owner) ?? 0n).toString() },
    });
  const valueOf = (owner: string) => ((balances.get(owner) ?? 0n) * supplyIndex) / RAY / SCALE;

  const check = (
    context: MoveCallContext,
    fn: string,
    objects: [number, string][],
    asset: number,
  ) => {
    const abort = () => new MoveAbortError(latest, 'incentive_v3', fn, 1);
    const [type = ''] = context.typeArguments.map((value) => normalizeStructTag(value));
    if (
      type !== usdc ||
      objects.some(([at, id]) => objectIdOf(context.args[at]) !== id) ||
      pureNumber(context.args[asset], 'u8', abort) !== BigInt(assetId)
    ) {
      throw abort();
    }
  };
  const STORAGE = { MutableReference: moveStruct(lendingCore, 'storage', 'Storage') };
  const POOL = { MutableReference: moveStruct(lendingCore, 'pool', 'Pool', [T0]) };
  const INCENTIVE_V2 = { MutableReference: moveStruct(latest, 'incentive_v2', 'Incentive') };
  const INCENTIVE_V3 = { MutableReference: moveStruct(latest, 'incentive_v3', 'Incentive') };
  state.defineFakeMoveFunction(`${latest}::incentive_v3::entry_deposit`, {
    normalized: publicFunction(
      1,
      [CLOCK_REF, STORAGE, POOL, 'U8', moveCoin(T0), 'U64', INCENTIVE_V2, INCENTIVE_V3],
      [],
      { entry: true },
    ),
    run: (context) => {
      check(
        context,
        'entry_deposit',
        [
          [0, CLOCK_ID],
          [1, storage.objectId],
          [2, pool.objectId],
          [6, incentiveV2.objectId],
          [7, incentiveV3.objectId],
        ],
        3,
      );
      const abort = () => new MoveAbortError(latest, 'incentive_v3', 'entry_deposit', 2);
      const amount = pureNumber(context.args[5], 'u64', abort);
      const coin = context.args[4];
      if (coin?.kind !== 'coin' || coin.balance !== amount) throw abort();
      takeCoin(coin, usdc, abort);
      const owner = normalizeSuiAddress(context.sender);
      const scaled = rayDiv(amount * SCALE, supplyIndex);
      context.stage(() => {
        balances.set(owner, (balances.get(owner) ?? 0n) + scaled);
        writeBalance(owner);
      });
      context.emit({
        type: `${lendingCore}::lending::DepositEvent`,
        parsedJson: { reserve: assetId, sender: owner, amount: amount.toString() },
      });
      return [];
    },
  });
  state.defineFakeMoveFunction(`${latest}::incentive_v3::withdraw_v2`, {
    normalized: publicFunction(
      1,
      [
        CLOCK_REF,
        { Reference: moveStruct(latest, 'oracle', 'PriceOracle') },
        STORAGE,
        POOL,
        'U8',
        'U64',
        INCENTIVE_V2,
        INCENTIVE_V3,
        { MutableReference: moveStruct('0x3', 'sui_system', 'SuiSystemState') },
      ],
      [moveStruct('0x2', 'balance', 'Balance', [T0])],
    ),
    run: (context) => {
      check(
        context,
        'withdraw_v2',
        [
          [0, CLOCK_ID],
          [1, oracle.objectId],
          [2, storage.objectId],
          [3, pool.objectId],
          [6, incentiveV2.objectId],
          [7, incentiveV3.objectId],
          [8, SYSTEM_STATE_ID],
        ],
        4,
      );
      const abort = () => new MoveAbortError(latest, 'incentive_v3', 'withdraw_v2', 2);
      const owner = normalizeSuiAddress(context.sender);
      const asked = pureNumber(context.args[5], 'u64', abort);
      const amount = asked < valueOf(owner) ? asked : valueOf(owner);
      if (amount === 0n) throw abort();
      const scaled = rayDiv(amount * SCALE, supplyIndex);
      const held = balances.get(owner) ?? 0n;
      context.stage(() => {
        balances.set(owner, scaled > held ? 0n : held - scaled);
        writeBalance(owner);
      });
      context.emit({
        type: `${lendingCore}::lending::WithdrawEvent`,
        parsedJson: { reserve: assetId, sender: owner, to: owner, amount: amount.toString() },
      });
      return [giveCoin(context, usdc, amount)];
    },
  });
  return {
    ids: {
      package: latest,
      storage: storage.objectId,
      pool: pool.objectId,
      assetId: String(assetId),
      incentiveV2: incentiveV2.objectId,
      incentiveV3: incentiveV3.objectId,
      priceOracle: oracle.objectId,
      reserve: reserveId,
      supplyBalances,
      lendingCorePackage: lendingCore,
    },
    accrue(numerator, denominator) {
      supplyIndex += (supplyIndex * numerator) / denominator;
      writeReserve();
    },
    supplyIndex: () => supplyIndex,
    scaledBalance: (owner) => balances.get(normalizeSuiAddress(owner)) ?? 0n,
    balanceValue: (owner) => valueOf(normalizeSuiAddress(owner)),
  };
}
