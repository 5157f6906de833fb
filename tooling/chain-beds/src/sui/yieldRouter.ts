import type { SuiMoveNormalizedFunction, SuiMoveNormalizedType } from '@mysten/sui/jsonRpc';
import { bcs } from '@mysten/sui/bcs';
import { normalizeSuiAddress } from '@mysten/sui/utils';
import { coinTypeKey } from './ids';
import type { CoinValue, MoveCallContext, ProgramValue } from './moveCalls';
import { MoveAbortError } from './moveCalls';
import { moveCoin, moveStruct, objectIdOf, TX_CONTEXT } from './moveTypes';
import type { SuiFakeSharedRef, SuiFakeState } from './state';

/** Our router package as the fake runs it: what the service's SVC_SUI_* settings name. */
export interface SuiFakeYieldRouter {
  readonly packageId: string;
  /** The shared `router::YieldRouter`. */
  readonly router: SuiFakeSharedRef;
  /** The shared `AdapterRegistry` venue legs go through. */
  readonly registry: SuiFakeSharedRef;
  /** What the router holds, by full coin type (deposits in, nothing out yet). */
  held(coinType: string): bigint;
}

export interface AddYieldRouterParameters {
  readonly packageId?: string;
  /**
   * Venue adapters the registry knows: the adapter's address and the receipt coin it mints to
   * the owner, one share per unit deposited.
   */
  readonly venues?: readonly { readonly adapter: string; readonly receiptCoinType: string }[];
}

const COIN_T = moveCoin({ TypeParameter: 0 });
const PLAN_ID: SuiMoveNormalizedType = { Vector: 'U8' };

const signature = (parameters: SuiMoveNormalizedType[]): SuiMoveNormalizedFunction => ({
  visibility: 'Public',
  isEntry: false,
  typeParameters: [{ abilities: [] }],
  parameters: [...parameters, TX_CONTEXT],
  return: [],
});

const pureBytes = (value: ProgramValue | undefined) =>
  value?.kind === 'pure' ? value.bytes : undefined;

/**
 * Lays our router package into the fake, run as the Move code does for deposits:
 * `router::deposit<T>(router, Coin<T>, plan_id)` takes the coin into the router and emits
 * `router::Deposited { plan_id, owner, amount }`; `router::deposit_to_venue<T>(router, registry,
 * Coin<T>, adapter, plan_id)` does the same through a registered adapter, mints its receipt coin
 * to the owner (one share per unit) and emits `router::DepositedToVenue { plan_id, owner,
 * adapter, amount }`. Wrong objects, coin type or an unknown adapter abort (nothing moves).
 */
export function addYieldRouter(
  state: SuiFakeState,
  parameters: AddYieldRouterParameters = {},
): SuiFakeYieldRouter {
  const packageId = normalizeSuiAddress(parameters.packageId ?? `0x${'5e'.repeat(32)}`);
  const router = state.addSharedObject({ type: `${packageId}::router::YieldRouter` });
  const registry = state.addSharedObject({ type: `${packageId}::registry::AdapterRegistry` });
  const adapters = new Map(
    (parameters.venues ?? []).map((venue) => [
      normalizeSuiAddress(venue.adapter),
      coinTypeKey(venue.receiptCoinType),
    ]),
  );
  const held = new Map<string, bigint>();
  const ROUTER = { MutableReference: moveStruct(packageId, 'router', 'YieldRouter') };
  const REGISTRY = { MutableReference: moveStruct(packageId, 'registry', 'AdapterRegistry') };

  /** Takes the deposited coin into the router (when the transaction succeeds); its amount. */
  const take = (context: MoveCallContext, coin: ProgramValue | undefined, name: string) => {
    const [coinType = ''] = context.typeArguments.map(coinTypeKey);
    if (coin?.kind !== 'coin' || coin.coinType !== coinType || coin.balance <= 0n) {
      throw new MoveAbortError(packageId, 'router', name, 1);
    }
    const amount = coin.balance;
    coin.balance = 0n;
    coin.spent = true;
    context.stage(() => held.set(coinType, (held.get(coinType) ?? 0n) + amount));
    return amount;
  };

  state.defineFakeMoveFunction(`${packageId}::router::deposit`, {
    normalized: signature([ROUTER, COIN_T, PLAN_ID]),
    run: (context) => {
      const [routerArg, coin, planId] = context.args;
      const plan = pureBytes(planId);
      if (objectIdOf(routerArg) !== router.objectId || !plan) {
        throw new MoveAbortError(packageId, 'router', 'deposit', 0);
      }
      const amount = take(context, coin, 'deposit');
      context.emit({
        type: `${packageId}::router::Deposited`,
        parsedJson: {
          plan_id: [...bcs.vector(bcs.u8()).parse(plan)],
          owner: context.sender,
          amount: amount.toString(),
        },
      });
      return [];
    },
  });
  state.defineFakeMoveFunction(`${packageId}::router::deposit_to_venue`, {
    normalized: signature([ROUTER, REGISTRY, COIN_T, 'Address', PLAN_ID]),
    run: (context) => {
      const [routerArg, registryArg, coin, adapterArg, planId] = context.args;
      const plan = pureBytes(planId);
      const adapterBytes = pureBytes(adapterArg);
      const adapter = adapterBytes && normalizeSuiAddress(bcs.Address.parse(adapterBytes));
      const receipt = adapter ? adapters.get(adapter) : undefined;
      if (
        objectIdOf(routerArg) !== router.objectId ||
        objectIdOf(registryArg) !== registry.objectId ||
        !plan ||
        !receipt
      ) {
        throw new MoveAbortError(packageId, 'router', 'deposit_to_venue', 0);
      }
      const amount = take(context, coin, 'deposit_to_venue');
      const shares: CoinValue = context.newCoin(receipt, amount);
      shares.recipient = context.sender;
      context.emit({
        type: `${packageId}::router::DepositedToVenue`,
        parsedJson: {
          plan_id: [...bcs.vector(bcs.u8()).parse(plan)],
          owner: context.sender,
          adapter,
          amount: amount.toString(),
        },
      });
      return [];
    },
  });
  return {
    packageId,
    router,
    registry,
    held: (coinType) => held.get(coinTypeKey(coinType)) ?? 0n,
  };
}
