import type { Transaction, TransactionObjectArgument } from '@mysten/sui/transactions';
import type { SuiLegPlan } from './legPlan';
import { ROUTER_MODULE, routerFunction } from './router';

/** The shared objects a router call takes, however they were put into the transaction. */
export interface RouterObjects {
  readonly router: TransactionObjectArgument;
  /** Set for venue legs. */
  readonly registry: TransactionObjectArgument | undefined;
}

function target(plan: SuiLegPlan): `${string}::${string}::${string}` {
  const name = routerFunction(plan.action, plan.venue !== undefined);
  return `${plan.packageId}::${ROUTER_MODULE}::${name}`;
}

/** The registry and adapter arguments of a venue call; a venue leg without a registry is a bug. */
function venueArguments(tx: Transaction, plan: SuiLegPlan, objects: RouterObjects) {
  if (!plan.venue) return undefined;
  if (!objects.registry) throw new Error('a venue leg needs the AdapterRegistry input');
  return { registry: objects.registry, adapter: tx.pure.address(plan.venue.adapter) };
}

/**
 * `router::deposit<USDC>(router, coin, plan_id)` or
 * `router::deposit_to_venue<USDC>(router, registry, coin, adapter, plan_id)`.
 */
export function appendDeposit(
  tx: Transaction,
  plan: SuiLegPlan,
  objects: RouterObjects,
  coin: TransactionObjectArgument,
): void {
  const planId = tx.pure.vector('u8', plan.planBytes);
  const venue = venueArguments(tx, plan, objects);
  tx.moveCall({
    target: target(plan),
    typeArguments: [plan.usdc],
    arguments: venue
      ? [objects.router, venue.registry, coin, venue.adapter, planId]
      : [objects.router, coin, planId],
  });
}

/**
 * `router::withdraw<USDC>(router, amount, plan_id)` or
 * `router::withdraw_from_venue<USDC>(router, registry, amount, adapter, plan_id)`, then the
 * returned `Coin<USDC>` goes to the owner.
 */
export function appendWithdraw(tx: Transaction, plan: SuiLegPlan, objects: RouterObjects): void {
  const planId = tx.pure.vector('u8', plan.planBytes);
  const amount = tx.pure.u64(plan.amount);
  const venue = venueArguments(tx, plan, objects);
  const coin = tx.moveCall({
    target: target(plan),
    typeArguments: [plan.usdc],
    arguments: venue
      ? [objects.router, venue.registry, amount, venue.adapter, planId]
      : [objects.router, amount, planId],
  });
  tx.transferObjects([coin], tx.pure.address(plan.owner));
}
