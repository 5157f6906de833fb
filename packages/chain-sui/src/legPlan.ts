import type { Blocker, LegRequest } from '@yieldrouter/schemas';
import { InvalidChainInputError, planIdToBytes } from '@yieldrouter/schemas';
import { normalizeSuiOwner, requireSuiAddress } from './address';
import type { ResolvedSuiConfig } from './config';
import type { RouterAction } from './router';

const U64_MAX = 18_446_744_073_709_551_615n;

/** A venue leg's on-chain ids. */
export interface SuiVenueIds {
  readonly venueId: string;
  readonly registryId: string;
  /** The adapter's address in the `AdapterRegistry` (venue.ids.adapter). */
  readonly adapter: string;
}

/** Everything a Sui leg needs, checked and in canonical form. */
export interface SuiLegPlan {
  readonly action: RouterAction;
  readonly planId: string;
  readonly planBytes: Uint8Array;
  readonly owner: string;
  readonly amount: bigint;
  readonly packageId: string;
  readonly routerId: string;
  readonly usdc: string;
  readonly venue: SuiVenueIds | undefined;
}

export type SuiLegPlanOutcome =
  | { readonly status: 'ready'; readonly plan: SuiLegPlan }
  | { readonly status: 'blocked'; readonly blockers: readonly Blocker[] };

function blocker(code: Blocker['code'], field: string, message: string, venueId?: string): Blocker {
  const base = { code, field, message };
  return venueId === undefined ? base : { ...base, details: { venueId } };
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

function venueIds(
  config: ResolvedSuiConfig,
  request: LegRequest,
  blockers: Blocker[],
): SuiVenueIds | undefined {
  if (request.target.kind !== 'venue') return undefined;
  const { venue } = request.target;
  const id = venue.venueId;
  if (config.adapterRegistryId === undefined) {
    blockers.push(
      blocker(
        'router_not_configured',
        'adapterRegistryId',
        'Sui AdapterRegistry id is missing.',
        id,
      ),
    );
  }
  if (venue.chain !== 'sui' || venue.standard !== 'router-adapter') {
    blockers.push(
      blocker(
        'venue_not_configured',
        'standard',
        `Venue ${id} is not a Sui router-adapter venue (${venue.chain}/${venue.standard}).`,
        id,
      ),
    );
    return undefined;
  }
  const adapter =
    venue.ids.adapter === undefined ? undefined : normalizeSuiOwner(venue.ids.adapter);
  if (adapter === undefined) {
    blockers.push(
      blocker('venue_not_configured', 'ids.adapter', `Venue ${id} has no valid ids.adapter.`, id),
    );
    return undefined;
  }
  return config.adapterRegistryId === undefined
    ? undefined
    : { venueId: id, registryId: config.adapterRegistryId, adapter };
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
  if (usdcCoinType === undefined) {
    blockers.push(
      blocker('asset_not_configured', 'usdcCoinType', 'USDC coin type on Sui is missing.'),
    );
  }
  const venue = venueIds(config, request, blockers);
  if (
    blockers.length > 0 ||
    packageId === undefined ||
    yieldRouterId === undefined ||
    usdcCoinType === undefined
  ) {
    return { status: 'blocked', blockers };
  }
  return {
    status: 'ready',
    plan: {
      action,
      planId: request.planId,
      planBytes,
      owner,
      amount,
      packageId,
      routerId: yieldRouterId,
      usdc: usdcCoinType,
      venue,
    },
  };
}
