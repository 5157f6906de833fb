import { coinWithBalance, Transaction } from '@mysten/sui/transactions';
import type { TransactionObjectArgument } from '@mysten/sui/transactions';
import { normalizeStructTag } from '@mysten/sui/utils';
import type { UnsignedLeg } from '@yieldrouter/schemas';
import { InvalidChainInputError, planIdToBytes } from '@yieldrouter/schemas';
import { requireSuiAddress } from './address';

/** One pool call of a route: `cetus::swap_a2b<A, B>` when `a2b`, else `swap_b2a<A, B>`. */
export interface SuiSwapLegHop {
  readonly poolId: string;
  readonly a2b: boolean;
  readonly coinIn: string;
  readonly coinOut: string;
}

/** A Cetus swap leg: the quote's routes, built locally into the owner's transaction. */
export interface SuiSwapLegRequest {
  readonly planId: string;
  readonly owner: string;
  readonly inputCoinType: string;
  readonly outputCoinType: string;
  /** What the owner spends: the service fee and the routes' inputs. */
  readonly amountInMicros: bigint;
  /** Paid out of the input to `recipient` first; null when the plan charges none. */
  readonly serviceFee: { readonly amountMicros: bigint; readonly recipient: string } | null;
  readonly routes: readonly {
    readonly amountIn: bigint;
    readonly hops: readonly SuiSwapLegHop[];
  }[];
  /** `check_coin_threshold` aborts the transaction below it (nothing moves). */
  readonly minAmountOutMicros: bigint;
  /** The aggregator package and Cetus' GlobalConfig (settings). */
  readonly packageId: string;
  readonly globalConfigId: string;
  readonly summary: string;
}

const U64_MAX = 18_446_744_073_709_551_615n;

/** The plan tag: an input no command reads, so the transaction carries it as a memo does. */
export const PLAN_MEMO_INPUT = 0;

function check(request: SuiSwapLegRequest) {
  const owner = requireSuiAddress('owner', request.owner);
  const packageId = requireSuiAddress('packageId', request.packageId);
  const fee = request.serviceFee?.amountMicros ?? 0n;
  const routed = request.routes.reduce((total, route) => total + route.amountIn, 0n);
  if (request.amountInMicros <= 0n || request.amountInMicros > U64_MAX) {
    throw new InvalidChainInputError('amountInMicros', 'amountInMicros: must be 1..u64 max');
  }
  if (request.routes.length === 0 || routed + fee !== request.amountInMicros) {
    throw new InvalidChainInputError(
      'routes',
      'routes: their inputs and the service fee must add up to amountInMicros',
    );
  }
  if (request.routes.some((route) => route.amountIn <= 0n || route.hops.length === 0)) {
    throw new InvalidChainInputError('routes', 'routes: each needs an input and a pool');
  }
  return { owner, packageId, fee };
}

/**
 * The unsigned Sui leg of a Cetus swap (`sui-transaction-json`: `Transaction.toJSON()`, the
 * owner's wallet resolves coins, objects and gas, then signs). Built offline from the quote:
 * the plan id as a pure input (the memo the receipt is matched by); the input as a
 * `coinWithBalance` intent; the service fee split off it to the recipient; each route's share
 * through its pools (`cetus::swap_a2b|swap_b2a(config, pool, coin, clock)`), route outputs
 * merged; `router::check_coin_threshold(out, minAmountOut)`; the output to the owner.
 *
 * @throws InvalidChainInputError for a malformed owner, package or planId, or routes that do not
 * add up.
 */
export async function buildSuiSwapLeg(request: SuiSwapLegRequest): Promise<UnsignedLeg> {
  const { owner, packageId, fee } = check(request);
  const planBytes = planIdToBytes(request.planId);
  const tx = new Transaction();
  tx.setSender(owner);
  tx.pure.vector('u8', planBytes);
  const input = normalizeStructTag(request.inputCoinType);
  const output = normalizeStructTag(request.outputCoinType);
  const coin = tx.add(coinWithBalance({ type: input, balance: request.amountInMicros }));
  if (request.serviceFee && fee > 0n) {
    const recipient = requireSuiAddress('serviceFee.recipient', request.serviceFee.recipient);
    const [feeCoin] = tx.splitCoins(coin, [tx.pure.u64(fee)]);
    if (!feeCoin) throw new Error('unreachable: splitCoins returns one coin per amount');
    tx.transferObjects([feeCoin], tx.pure.address(recipient));
  }
  // Every route but the last takes its share split off the input; the last takes what is left
  // (its own amountIn, by the check above).
  const leading = request.routes.slice(0, -1);
  const shares = leading.length
    ? tx.splitCoins(
        coin,
        leading.map((route) => tx.pure.u64(route.amountIn)),
      )
    : [];
  const routeInputs = [
    ...leading.map((_, index) => shares[index] as TransactionObjectArgument),
    coin,
  ];
  const routes = request.routes;
  const outputs = routes.map((route, index) => {
    let current = routeInputs[index] as TransactionObjectArgument;
    for (const hop of route.hops) {
      const [coinA, coinB] = hop.a2b ? [hop.coinIn, hop.coinOut] : [hop.coinOut, hop.coinIn];
      const [next] = tx.moveCall({
        target: `${packageId}::cetus::${hop.a2b ? 'swap_a2b' : 'swap_b2a'}`,
        typeArguments: [coinA, coinB],
        arguments: [
          tx.object(request.globalConfigId),
          tx.object(hop.poolId),
          current,
          tx.object.clock(),
        ],
      });
      if (!next) throw new Error('unreachable: a swap returns its output coin');
      current = next;
    }
    return current;
  });
  const [out, ...rest] = outputs;
  if (!out) throw new Error('unreachable: routes are checked');
  if (rest.length > 0) tx.mergeCoins(out, rest);
  tx.moveCall({
    target: `${packageId}::router::check_coin_threshold`,
    typeArguments: [output],
    arguments: [out, tx.pure.u64(request.minAmountOutMicros)],
  });
  tx.transferObjects([out], tx.pure.address(owner));
  const transaction = await tx.toJSON({ supportedIntents: ['CoinWithBalance'] });
  return {
    chain: 'sui',
    action: 'swap',
    summary: request.summary,
    planId: request.planId,
    amountMicros: request.amountInMicros,
    settles: true,
    payload: { encoding: 'sui-transaction-json', transaction },
  };
}
