import type { Blocker, LegRequest } from '@yieldrouter/schemas';
import { InvalidChainInputError, planIdToBytes } from '@yieldrouter/schemas';
import { requireSuiAddress } from './address';
import type { ResolvedSuiConfig } from './config';
import type { RouterAction } from './router';
import type { SuiVenue } from './venues/suiVenue';
import { resolveSuiVenue } from './venues/suiVenue';

const U64_MAX = 18_446_744_073_709_551_615n;

/** Everything a Sui leg needs, checked and in canonical form. */
export interface SuiLegPlan {
  readonly action: RouterAction;
  readonly planId: string;
  readonly planBytes: Uint8Array;
  readonly owner: string;
  readonly amount: bigint;
  readonly usdc: string;
  /** Router legs: our package and its YieldRouter. */
  readonly router: { readonly packageId: string; readonly routerId: string } | undefined;
  /** Venue legs: the protocol's objects the leg's calls take. */
  readonly venue: SuiVenue | undefined;
}

export type SuiLegPlanOutcome =
  | { readonly status: 'ready'; readonly plan: SuiLegPlan }
  | { readonly status: 'blocked'; readonly blockers: readonly Blocker[] };

function blocker(code: Blocker['code'], field: string, message: string): Blocker {
  return { code, field, message };
}

function checkAmount(amount: bigint): bigint {
  if (typeof amount !== 'bigint' || amount <= 0n) {
    throw new InvalidChainInputError('amountMicros', 'amountMicros: must be > 0');
  }
  if (amount > U64_MAX) {
    throw new InvalidChainInputError('amountMicros', 'amountMicros: must fit a Move u64');
  }
  return amount;
}

/**
 * Checks a leg request. Bad input throws `InvalidChainInputError` (owner, amountMicros, planId);
 * missing configuration blocks the leg with every catalog blocker that applies.
 */
export function planSuiLeg(
  config: ResolvedSuiConfig,
  request: LegRequest,
  action: RouterAction,
): SuiLegPlanOutcome {
  const owner = requireSuiAddress('owner', request.owner);
  const amount = checkAmount(request.amountMicros);
  const planBytes = planIdToBytes(request.planId);

  const blockers: Blocker[] = [];
  const { packageId, yieldRouterId, usdcCoinType } = config;
  if (usdcCoinType === undefined) {
    blockers.push(
      blocker('asset_not_configured', 'usdcCoinType', 'USDC coin type on Sui is missing.'),
    );
  }
  const base = { action, planId: request.planId, planBytes, owner, amount };
  if (request.target.kind === 'venue') {
    // A venue leg calls the protocol's own functions: our router package is not involved.
    const resolved = resolveSuiVenue(request.target.venue, usdcCoinType ?? '');
    if (resolved.status === 'blocked') blockers.push(...resolved.blockers);
    if (resolved.status === 'blocked' || usdcCoinType === undefined) {
      return { status: 'blocked', blockers };
    }
    return {
      status: 'ready',
      plan: { ...base, usdc: usdcCoinType, router: undefined, venue: resolved.venue },
    };
  }
  if (packageId === undefined) {
    blockers.push(
      blocker('router_not_configured', 'packageId', 'Sui router package id is missing.'),
    );
  }
  if (yieldRouterId === undefined) {
    blockers.push(
      blocker('router_not_configured', 'yieldRouterId', 'Sui YieldRouter object id is missing.'),
    );
  }
  if (packageId === undefined || yieldRouterId === undefined || usdcCoinType === undefined) {
    return { status: 'blocked', blockers };
  }
  return {
    status: 'ready',
    plan: {
      ...base,
      usdc: usdcCoinType,
      router: { packageId, routerId: yieldRouterId },
      venue: undefined,
    },
  };
}
