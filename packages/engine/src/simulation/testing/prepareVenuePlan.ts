// Test support: a deposit or withdrawal plan into a venue, prepared as the API prepares it.
import type { Books } from '@yieldrouter/ledger';
import type { ChainAdapters } from '../../chains/chainsConfig';
import { prepareStrategyPlan } from '../../plan/prepareStrategyPlan';
import type { Treasuries } from '../../plan/withdrawSkim';
import { prepareRebalance } from '../../wallet/prepareRebalance';
import { listOpportunities } from '../../venues/listOpportunities';
import type { VenueConfig } from '../../venues/venueConfig';

/**
 * The venues listed now, then `kind` of `amountMicros` into (out of) venue `id` for `owner`; a
 * withdrawal pays its skim to `treasuries` where the owner holds the receipts.
 */
export async function prepareVenuePlan(
  context: {
    readonly db: Books;
    readonly adapters: ChainAdapters;
    readonly venues: VenueConfig;
    readonly treasuries?: Treasuries;
  },
  plan: {
    readonly kind: 'deposit' | 'withdraw';
    readonly id: string;
    readonly owner: string;
    readonly amountMicros: bigint;
  },
) {
  const { db, adapters, venues, treasuries } = context;
  const now = new Date();
  const opportunities = await listOpportunities({ db, venues, enablement: [], now });
  const { kind, id, owner, amountMicros } = plan;
  return prepareStrategyPlan({
    db,
    adapters,
    venues,
    opportunities,
    kind,
    request: { id, idField: 'body.id', amountMicros, owner },
    now,
    treasuries,
  });
}

/** The venues listed now, then a rebalance of everything `wallet` holds in `from` into `to`. */
export async function prepareRebalanceAll(
  context: { readonly db: Books; readonly adapters: ChainAdapters; readonly venues: VenueConfig },
  plan: { readonly wallet: string; readonly from: string; readonly to: string },
) {
  const { db, adapters, venues } = context;
  const now = new Date();
  const opportunities = await listOpportunities({ db, venues, enablement: [], now });
  return prepareRebalance(
    { db, adapters, venues, opportunities },
    {
      wallet: plan.wallet,
      fromOpportunityId: plan.from,
      toOpportunityId: plan.to,
      amount: 'all',
      now,
    },
  );
}
