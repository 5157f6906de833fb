import type { TransactionDataBuilder } from '@mysten/sui/transactions';
import type { Argument } from '@mysten/sui/transactions';
import { bcs } from '@mysten/sui/bcs';
import { fromBase64, normalizeSuiAddress } from '@mysten/sui/utils';
import { coinTypeKey, displayCoinType, moveFunctionKey, SUI_COIN_TYPE } from './ids';
import { FAKE_GAS_CHARGED } from './render';
import type { CoinValue, FakeMoveFunction, ProgramValue } from './moveCalls';
import { MoveAbortError } from './moveCalls';
import type { SuiFakeBalanceChange, SuiFakeEvent, SuiFakeObject, SuiFakeState } from './state';

/** The outcome of running a programmable transaction; `apply` commits a success. */
export interface ProgramOutcome {
  readonly status: 'success' | 'failure';
  readonly error: string | undefined;
  readonly events: readonly SuiFakeEvent[];
  readonly balanceChanges: readonly SuiFakeBalanceChange[];
  /** Writes coins, owners and staged effects into the state (a failure: only the gas charge). */
  apply(version: bigint, digest: string): void;
}

class CommandError extends Error {}

function ownerOf(object: SuiFakeObject): string | undefined {
  return typeof object.owner === 'object' && 'AddressOwner' in object.owner
    ? object.owner.AddressOwner
    : undefined;
}

/**
 * Whether the fake runs this transaction: every command is one it runs — SplitCoins, MergeCoins,
 * TransferObjects (the node's own commands, no Move code), or a Move call it has a handler for.
 * A transaction of coin commands only (a transfer, a self-transfer) runs as on a node.
 */
export function runsMoveCode(
  data: TransactionDataBuilder,
  functions: ReadonlyMap<string, FakeMoveFunction>,
): boolean {
  return (
    data.commands.length > 0 &&
    data.commands.every((command) => {
      if (command.SplitCoins || command.MergeCoins || command.TransferObjects) return true;
      const call = command.MoveCall;
      return (
        call !== undefined &&
        functions.has(moveFunctionKey(call.package, call.module, call.function))
      );
    })
  );
}

/**
 * Runs a programmable transaction's commands (SplitCoins, MergeCoins, TransferObjects and Move
 * calls the fake has handlers for) on copies of the coins, and reports the outcome as a node
 * does: balance changes per owner and coin type, the events the calls emitted, or a failure
 * (Move abort, short coin, a coin left unused) with nothing moved.
 */
export function runProgrammable(
  state: SuiFakeState,
  data: TransactionDataBuilder,
  sender: string,
  functions: ReadonlyMap<string, FakeMoveFunction>,
  /** A dry run with no gas payment: the coin the node makes up to pay the gas (never stored). */
  mockGas?: SuiFakeObject,
): ProgramOutcome {
  const paymentRef = data.gasData.payment?.[0];
  const gasObject = paymentRef
    ? state.objects.get(normalizeSuiAddress(paymentRef.objectId))
    : mockGas;
  const coins: CoinValue[] = [];
  const staged: (() => void)[] = [];
  const events: SuiFakeEvent[] = [];
  const inputValues = new Map<number, ProgramValue>();
  const coinOf = (object: SuiFakeObject): CoinValue => {
    const known = coins.find((coin) => coin.object === object);
    if (known) return known;
    const coin: CoinValue = {
      kind: 'coin',
      coinType: object.coin?.coinType ?? '',
      balance: object.coin?.balance ?? 0n,
      object,
      spent: false,
    };
    coins.push(coin);
    return coin;
  };
  const input = (index: number): ProgramValue => {
    const known = inputValues.get(index);
    if (known) return known;
    const callArg = data.inputs[index];
    let value: ProgramValue;
    if (callArg?.Pure) {
      value = { kind: 'pure', bytes: fromBase64(callArg.Pure.bytes) };
    } else {
      const ref = callArg?.Object?.ImmOrOwnedObject ?? callArg?.Object?.SharedObject;
      const object = ref ? state.objects.get(normalizeSuiAddress(ref.objectId)) : undefined;
      if (!object) throw new CommandError(`input ${index} is not an object the fake knows`);
      value = object.coin ? coinOf(object) : { kind: 'object', object };
    }
    inputValues.set(index, value);
    return value;
  };
  const results: ProgramValue[][] = [];
  const resolve = (argument: Argument): ProgramValue => {
    let value: ProgramValue | undefined;
    if (argument.$kind === 'GasCoin') {
      value = gasObject ? coinOf(gasObject) : undefined;
    } else if (argument.$kind === 'Input') {
      value = input(argument.Input);
    } else if (argument.$kind === 'Result') {
      value = results[argument.Result]?.[0];
    } else {
      const [command, item] = argument.NestedResult;
      value = results[command]?.[item];
    }
    if (!value) throw new CommandError('an argument refers to nothing');
    if (value.kind === 'coin' && value.spent)
      throw new CommandError('a coin is used after it moved');
    if (value.kind === 'potato' && value.consumed) {
      throw new CommandError('a value is used after it moved');
    }
    return value;
  };
  const coinArg = (argument: Argument): CoinValue => {
    const value = resolve(argument);
    if (value.kind !== 'coin') throw new CommandError('expected a coin');
    return value;
  };
  const u64 = (argument: Argument): bigint => {
    const value = resolve(argument);
    if (value.kind !== 'pure') throw new CommandError('expected a u64');
    return BigInt(bcs.u64().parse(value.bytes));
  };
  const newCoin = (coinType: string, balance: bigint): CoinValue => {
    const coin: CoinValue = {
      kind: 'coin',
      coinType: coinTypeKey(coinType),
      balance,
      object: undefined,
      spent: false,
    };
    coins.push(coin);
    return coin;
  };

  let failure: string | undefined;
  for (const [index, command] of data.commands.entries()) {
    try {
      if (command.SplitCoins) {
        const source = coinArg(command.SplitCoins.coin);
        const made = command.SplitCoins.amounts.map((amount) => {
          const value = u64(amount);
          if (value > source.balance) throw new CommandError('InsufficientCoinBalance');
          source.balance -= value;
          return newCoin(source.coinType, value);
        });
        results.push(made);
      } else if (command.MergeCoins) {
        const target = coinArg(command.MergeCoins.destination);
        for (const argument of command.MergeCoins.sources) {
          const source = coinArg(argument);
          if (source.coinType !== target.coinType)
            throw new CommandError('merging another coin type');
          target.balance += source.balance;
          source.balance = 0n;
          source.spent = true;
        }
        results.push([]);
      } else if (command.TransferObjects) {
        const to = resolve(command.TransferObjects.address);
        if (to.kind !== 'pure') throw new CommandError('expected an address');
        const recipient = normalizeSuiAddress(bcs.Address.parse(to.bytes));
        for (const argument of command.TransferObjects.objects) {
          const coin = coinArg(argument);
          coin.recipient = recipient;
          coin.spent = true;
        }
        results.push([]);
      } else if (command.MoveCall) {
        const call = command.MoveCall;
        const fn = functions.get(moveFunctionKey(call.package, call.module, call.function));
        if (!fn) throw new CommandError('a Move function the fake does not run');
        results.push(
          fn.run({
            sender,
            typeArguments: call.typeArguments,
            args: call.arguments.map(resolve),
            newCoin,
            stage: (effect) => staged.push(effect),
            emit: (event) => events.push({ sender, ...event }),
          }),
        );
      } else {
        throw new CommandError(`${command.$kind} is not run by the fake`);
      }
    } catch (error) {
      if (error instanceof MoveAbortError) failure = `${error.message} in command ${index}`;
      else if (error instanceof CommandError) failure = `${error.message} in command ${index}`;
      else throw error;
      break;
    }
  }
  // Coins and hot potatoes have no `drop`: one the transaction made and left unused fails it.
  const unusedPotato = results.flat().some((value) => value.kind === 'potato' && !value.consumed);
  if (
    !failure &&
    (unusedPotato || coins.some((coin) => !coin.object && !coin.spent && !coin.recipient))
  ) {
    failure = 'UnusedValueWithoutDrop';
  }
  // Gas is charged either way, to the first payment coin (the fake's fixed gas use).
  const gasOwner = gasObject ? ownerOf(gasObject) : undefined;
  const charged = gasObject?.coin
    ? FAKE_GAS_CHARGED < gasObject.coin.balance
      ? FAKE_GAS_CHARGED
      : gasObject.coin.balance
    : 0n;
  if (failure) {
    return {
      status: 'failure',
      error: failure,
      events: [],
      balanceChanges:
        gasOwner && charged > 0n
          ? [{ owner: gasOwner, coinType: SUI_COIN_TYPE, amount: -charged }]
          : [],
      apply: () => {
        if (gasObject?.coin) state.setCoin(gasObject, gasObject.coin.balance - charged, undefined);
      },
    };
  }
  if (gasObject) coinOf(gasObject).balance -= charged;

  const deltas = new Map<string, bigint>();
  const add = (owner: string, coinType: string, amount: bigint) => {
    const key = `${owner}|${coinType}`;
    deltas.set(key, (deltas.get(key) ?? 0n) + amount);
  };
  for (const coin of coins) {
    const owner = coin.object ? ownerOf(coin.object) : undefined;
    if (coin.object && owner) {
      const initial = coin.object.coin?.balance ?? 0n;
      const kept = coin.spent && !coin.recipient ? 0n : coin.balance;
      add(owner, coin.coinType, -initial);
      add(coin.recipient ?? owner, coin.coinType, kept);
    } else if (coin.recipient) {
      add(coin.recipient, coin.coinType, coin.balance);
    }
  }
  const balanceChanges = [...deltas.entries()]
    .filter(([, amount]) => amount !== 0n)
    .map(([key, amount]) => {
      const [owner = '', coinType = ''] = key.split('|');
      return { owner, coinType: displayCoinType(coinType), amount };
    });
  return {
    status: 'success',
    error: undefined,
    events,
    balanceChanges,
    apply(version, digest) {
      for (const coin of coins) {
        if (coin.object) {
          if (coin.spent && !coin.recipient) {
            state.objects.delete(coin.object.objectId);
            continue;
          }
          state.setCoin(coin.object, coin.balance, coin.recipient);
        } else if (coin.recipient) {
          state.createCoin(coin.recipient, coin.coinType, coin.balance, version, digest);
        }
      }
      for (const effect of staged) effect();
    },
  };
}
