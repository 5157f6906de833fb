/** The Move module of our router package that router legs call (venue legs call the venue). */
export const ROUTER_MODULE = 'router';

export type RouterAction = 'deposit' | 'withdraw';

/** The entry point a leg calls: straight into the router, or through it into a venue adapter. */
export function routerFunction(action: RouterAction, throughVenue: boolean): string {
  if (action === 'deposit') return throughVenue ? 'deposit_to_venue' : 'deposit';
  return throughVenue ? 'withdraw_from_venue' : 'withdraw';
}

/** The event that entry point emits; its type lives in `<packageId>::router`. */
export function routerEventName(action: RouterAction, throughVenue: boolean): string {
  if (action === 'deposit') return throughVenue ? 'DepositedToVenue' : 'Deposited';
  return throughVenue ? 'WithdrawnFromVenue' : 'Withdrawn';
}

/** Where a router entry point takes `plan_id` and, through a venue, `adapter` (see README.md). */
export interface RouterCallArguments {
  readonly planId: number;
  readonly adapter: number | undefined;
}

/**
 * The argument positions of a router call: `(router, coin | amount, plan_id)` or
 * `(router, registry, coin | amount, adapter, plan_id)`.
 */
export function routerCallArguments(throughVenue: boolean): RouterCallArguments {
  return throughVenue ? { planId: 4, adapter: 3 } : { planId: 2, adapter: undefined };
}
