import type { SuiMoveNormalizedFunction, SuiMoveNormalizedType } from '@mysten/sui/jsonRpc';
import { bcs } from '@mysten/sui/bcs';
import { normalizeSuiAddress } from '@mysten/sui/utils';
import { coinTypeKey } from './ids';
import type { CoinValue, MoveCallContext, ProgramValue } from './moveCalls';
import { MoveAbortError } from './moveCalls';
import { moveStruct, TX_CONTEXT } from './moveTypes';
import type { SuiFakeState } from './state';

// What the fake's lending venues (Suilend, Navi, Scallop) share: Sui's system objects, the
// framework functions their transactions call, and how handlers read their arguments.

export const CLOCK_ID = normalizeSuiAddress('0x6');
export const SYSTEM_STATE_ID = normalizeSuiAddress('0x5');

export const CLOCK_REF = { Reference: moveStruct('0x2', 'clock', 'Clock') };
export const T0: SuiMoveNormalizedType = { TypeParameter: 0 };
export const T1: SuiMoveNormalizedType = { TypeParameter: 1 };

/** A public function's normalized signature (the trailing `&mut TxContext` added when asked). */
export function publicFunction(
  typeParameters: number,
  parameters: SuiMoveNormalizedType[],
  returns: SuiMoveNormalizedType[],
  options: { entry?: boolean; txContext?: boolean } = {},
): SuiMoveNormalizedFunction {
  return {
    visibility: 'Public',
    isEntry: options.entry ?? false,
    typeParameters: Array.from({ length: typeParameters }, () => ({ abilities: [] })),
    parameters: options.txContext === false ? parameters : [...parameters, TX_CONTEXT],
    return: returns,
  };
}

/**
 * The Clock, the system state, and the framework functions the venues' transactions call:
 * `0x1::option::none<T>()` (an `Option` is BCS `0` here), `0x2::coin::from_balance<T>` (a
 * `Balance` is a coin value inside a transaction) and `0x2::coin::destroy_zero<T>`.
 */
export function ensureLendingFramework(state: SuiFakeState): void {
  state.ensureSystemObject(CLOCK_ID, '0x2::clock::Clock');
  state.ensureSystemObject(SYSTEM_STATE_ID, '0x3::sui_system::SuiSystemState');
  state.defineFakeMoveFunction('0x1::option::none', {
    normalized: publicFunction(1, [], [moveStruct('0x1', 'option', 'Option', [T0])], {
      txContext: false,
    }),
    run: () => [{ kind: 'pure', bytes: new Uint8Array([0]) }],
  });
  // What a wallet's coinWithBalance resolution calls when the amount is a coin's whole balance.
  state.defineFakeMoveFunction('0x2::coin::destroy_zero', {
    normalized: publicFunction(1, [moveStruct('0x2', 'coin', 'Coin', [T0])], [], {
      txContext: false,
    }),
    run: (context) => {
      const [coin] = context.args;
      if (coin?.kind !== 'coin' || coin.balance !== 0n) {
        throw new MoveAbortError('0x2', 'balance', 'destroy_zero', 0);
      }
      coin.spent = true;
      return [];
    },
  });
  state.defineFakeMoveFunction('0x2::coin::from_balance', {
    normalized: publicFunction(
      1,
      [moveStruct('0x2', 'balance', 'Balance', [T0])],
      [moveStruct('0x2', 'coin', 'Coin', [T0])],
    ),
    run: (context) => {
      const [balance] = context.args;
      if (balance?.kind !== 'coin') throw new MoveAbortError('0x2', 'coin', 'from_balance', 0);
      balance.spent = true;
      return [context.newCoin(balance.coinType, balance.balance)];
    },
  });
}

/** A pure u64 / u8 argument, or an abort of `fn`. */
export function pureNumber(
  value: ProgramValue | undefined,
  width: 'u8' | 'u64',
  abort: () => MoveAbortError,
): bigint {
  if (value?.kind !== 'pure') throw abort();
  try {
    return width === 'u8'
      ? BigInt(bcs.u8().parse(value.bytes))
      : BigInt(bcs.u64().parse(value.bytes));
  } catch {
    throw abort();
  }
}

/** Takes a coin argument of `coinType` whole (it moves into the venue). */
export function takeCoin(
  value: ProgramValue | undefined,
  coinType: string,
  abort: () => MoveAbortError,
): bigint {
  if (value?.kind !== 'coin' || value.coinType !== coinTypeKey(coinType) || value.balance <= 0n) {
    throw abort();
  }
  const amount = value.balance;
  value.balance = 0n;
  value.spent = true;
  return amount;
}

/** A new coin the call returns to the transaction. */
export function giveCoin(context: MoveCallContext, coinType: string, amount: bigint): CoinValue {
  return context.newCoin(coinTypeKey(coinType), amount);
}

/** `0x…::m::T` as a Move `TypeName` prints (no 0x). */
export function typeNameOf(type: string): { type: string; fields: { name: string } } {
  return { type: '0x1::type_name::TypeName', fields: { name: coinTypeKey(type).slice(2) } };
}
