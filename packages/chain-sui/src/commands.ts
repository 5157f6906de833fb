import type { Transaction, TransactionObjectArgument } from '@mysten/sui/transactions';
import type { SuiLegPlan } from './legPlan';
import { ROUTER_MODULE, routerFunction } from './router';

/** The shared router object a router call takes, however it was put into the transaction. */
export interface RouterObjects {
  readonly router: TransactionObjectArgument;
}

function target(plan: SuiLegPlan): `${string}::${string}::${string}` {
  if (!plan.router) throw new Error('a router call needs a router leg');
  return `${plan.router.packageId}::${ROUTER_MODULE}::${routerFunction(plan.action, false)}`;
}

/**
 * `router::deposit<USDC>(router, coin, plan_id)` (router legs; venue legs call the venue, see
 * venues/venueCalls.ts).
 */
export function appendDeposit(
  tx: Transaction,
  plan: SuiLegPlan,
  objects: RouterObjects,
  coin: TransactionObjectArgument,
): void {
  const planId = tx.pure.vector('u8', plan.planBytes);
  tx.moveCall({
    target: target(plan),
    typeArguments: [plan.usdc],
    arguments: [objects.router, coin, planId],
  });
}

/** `router::withdraw<USDC>(router, amount, plan_id)`, then the returned `Coin<USDC>` goes to the owner. */
export function appendWithdraw(tx: Transaction, plan: SuiLegPlan, objects: RouterObjects): void {
  const planId = tx.pure.vector('u8', plan.planBytes);
  const amount = tx.pure.u64(plan.amount);
  const coin = tx.moveCall({
    target: target(plan),
    typeArguments: [plan.usdc],
    arguments: [objects.router, amount, planId],
  });
  tx.transferObjects([coin], tx.pure.address(plan.owner));
}
