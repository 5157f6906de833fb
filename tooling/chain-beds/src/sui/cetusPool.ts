import type { SuiMoveNormalizedFunction } from '@mysten/sui/jsonRpc';
import { bcs } from '@mysten/sui/bcs';
import { normalizeSuiAddress } from '@mysten/sui/utils';
import { coinTypeKey } from './ids';
import type { MoveCallContext, ProgramValue } from './moveCalls';
import { MoveAbortError } from './moveCalls';
import { moveCoin, moveStruct, objectIdOf, TX_CONTEXT } from './moveTypes';
import type { SuiFakeSharedRef, SuiFakeState } from './state';

/** The Cetus-shaped ids a bed pool lives under (what the service's SVC_CETUS_* settings name). */
export interface CetusPoolPackage {
  /** The aggregator package: `cetus::swap_a2b|swap_b2a` and `router::check_coin_threshold`. */
  readonly packageId: string;
  /** Cetus' shared `GlobalConfig`. */
  readonly globalConfig: SuiFakeSharedRef;
}

/** A constant-product pool the Sui fake holds and runs: `Pool<A, B>`, fee kept in the pool. */
export interface SuiFakePool extends CetusPoolPackage {
  readonly pool: SuiFakeSharedRef;
  /** Full Move coin types. */
  readonly coinA: string;
  readonly coinB: string;
  readonly feeBps: bigint;
  reserves(): { readonly a: bigint; readonly b: bigint };
  /** What selling `amountIn` returns now, and the fee the pool keeps (in the input coin). */
  quote(a2b: boolean, amountIn: bigint): { readonly amountOut: bigint; readonly fee: bigint };
}

export interface AddCetusPoolParameters {
  readonly coinA: string;
  readonly coinB: string;
  readonly reserveA: bigint;
  readonly reserveB: bigint;
  /** The pool fee on the input, in bps (Cetus' 0.25% tier: 25). */
  readonly feeBps?: bigint;
}

function swapSignature(packageId: string, a2b: boolean): SuiMoveNormalizedFunction {
  const [sold, bought] = a2b ? [0, 1] : [1, 0];
  return {
    visibility: 'Public',
    isEntry: false,
    typeParameters: [{ abilities: [] }, { abilities: [] }],
    parameters: [
      { Reference: moveStruct(packageId, 'config', 'GlobalConfig') },
      {
        MutableReference: moveStruct(packageId, 'pool', 'Pool', [
          { TypeParameter: 0 },
          { TypeParameter: 1 },
        ]),
      },
      moveCoin({ TypeParameter: sold }),
      { Reference: moveStruct('0x2', 'clock', 'Clock') },
      TX_CONTEXT,
    ],
    return: [moveCoin({ TypeParameter: bought })],
  };
}

const THRESHOLD_SIGNATURE: SuiMoveNormalizedFunction = {
  visibility: 'Public',
  isEntry: false,
  typeParameters: [{ abilities: [] }],
  parameters: [{ Reference: moveCoin({ TypeParameter: 0 }) }, 'U64'],
  return: [],
};

/**
 * Lays a Cetus-shaped constant-product pool into the fake, with the package the service's
 * programmable transaction calls: `cetus::swap_a2b<A, B>(config, pool, Coin<A>, clock)` →
 * `Coin<B>` (and `swap_b2a`), `router::check_coin_threshold<T>(&Coin<T>, u64)` (aborts code 1
 * below the threshold). A transaction that calls them runs for real: the input coin goes into
 * the pool, the output coin comes out of it (x·y = k on the input less the pool fee), a
 * `cetus::SwapEvent` is emitted; an abort moves nothing.
 */
export function addCetusPool(
  state: SuiFakeState,
  parameters: AddCetusPoolParameters,
  existing?: CetusPoolPackage,
): SuiFakePool {
  const packageId = normalizeSuiAddress(existing?.packageId ?? `0x${'ce'.repeat(32)}`);
  const clockId = normalizeSuiAddress('0x6');
  if (!state.objects.has(clockId)) {
    state.addSharedObject({
      type: '0x2::clock::Clock',
      objectId: clockId,
      initialSharedVersion: 1n,
    });
  }
  const globalConfig =
    existing?.globalConfig ?? state.addSharedObject({ type: `${packageId}::config::GlobalConfig` });
  const coinA = coinTypeKey(parameters.coinA);
  const coinB = coinTypeKey(parameters.coinB);
  const pool = state.addSharedObject({ type: `${packageId}::pool::Pool<${coinA}, ${coinB}>` });
  const feeBps = parameters.feeBps ?? 25n;
  let reserves = { a: parameters.reserveA, b: parameters.reserveB };

  const quote = (a2b: boolean, amountIn: bigint) => {
    const [into, outOf] = a2b ? [reserves.a, reserves.b] : [reserves.b, reserves.a];
    const fee = (amountIn * feeBps) / 10_000n;
    const net = amountIn - fee;
    return { amountOut: (outOf * net) / (into + net), fee };
  };

  const swap =
    (a2b: boolean) =>
    (context: MoveCallContext): ProgramValue[] => {
      const [config, poolArg, coin, clock] = context.args;
      const [typeA = '', typeB = ''] = context.typeArguments.map(coinTypeKey);
      if (
        objectIdOf(config) !== globalConfig.objectId ||
        objectIdOf(poolArg) !== pool.objectId ||
        objectIdOf(clock) !== clockId ||
        typeA !== coinA ||
        typeB !== coinB ||
        coin?.kind !== 'coin' ||
        coin.coinType !== (a2b ? coinA : coinB)
      ) {
        throw new MoveAbortError(packageId, 'cetus', a2b ? 'swap_a2b' : 'swap_b2a', 0);
      }
      const amountIn = coin.balance;
      const { amountOut, fee } = quote(a2b, amountIn);
      coin.balance = 0n;
      coin.spent = true;
      const next = a2b
        ? { a: reserves.a + amountIn, b: reserves.b - amountOut }
        : { a: reserves.a - amountOut, b: reserves.b + amountIn };
      context.stage(() => {
        reserves = next;
      });
      context.emit({
        type: `${packageId}::cetus::SwapEvent`,
        parsedJson: {
          pool: pool.objectId,
          a2b,
          by_amount_in: true,
          amount_in: amountIn.toString(),
          amount_out: amountOut.toString(),
          fee_amount: fee.toString(),
          vault_a_amount: next.a.toString(),
          vault_b_amount: next.b.toString(),
        },
      });
      return [context.newCoin(a2b ? coinB : coinA, amountOut)];
    };

  const threshold = (context: MoveCallContext): ProgramValue[] => {
    const [coin, minimum] = context.args;
    if (coin?.kind !== 'coin' || minimum?.kind !== 'pure') {
      throw new MoveAbortError(packageId, 'router', 'check_coin_threshold', 0);
    }
    if (coin.balance < BigInt(bcs.u64().parse(minimum.bytes))) {
      throw new MoveAbortError(packageId, 'router', 'check_coin_threshold', 1);
    }
    return [];
  };

  state.defineFakeMoveFunction(`${packageId}::cetus::swap_a2b`, {
    normalized: swapSignature(packageId, true),
    run: swap(true),
  });
  state.defineFakeMoveFunction(`${packageId}::cetus::swap_b2a`, {
    normalized: swapSignature(packageId, false),
    run: swap(false),
  });
  state.defineFakeMoveFunction(`${packageId}::router::check_coin_threshold`, {
    normalized: THRESHOLD_SIGNATURE,
    run: threshold,
  });
  return {
    packageId,
    globalConfig,
    pool,
    coinA,
    coinB,
    feeBps,
    reserves: () => reserves,
    quote,
  };
}
