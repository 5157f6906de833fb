/** The Move module of our router package that every leg calls (see README.md). */
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
