// Test support: a staked position made the way production makes one (a route with stake,
// executed on the fake chain, settled from its receipt). Product code never imports it.
import type { Books } from '@yieldrouter/ledger';
import { listOpportunities } from '../../venues/listOpportunities';
import { seedVenueCatalog } from '../../venues/seedVenueCatalog';
import type { Opportunity } from '@yieldrouter/schemas';
import { requiredVenueIds } from '../../venues/catalog';
import type { VenueConfig } from '../../venues/venueConfig';
import { prepareRoute } from '../prepareRoute';
import { settleLeg } from '../settleLeg';
import type { FakeChain } from './fakeChain';

/** Placeholder ids (each its own name) for every id a Solana venue needs; the fake chain ignores them. */
const placeholderIds = (venueId: string) =>
  Object.fromEntries(
    requiredVenueIds('solana', 'router-adapter', venueId).map((name) => [name, name]),
  );

/** A ready Solana venue of the catalog, configured with placeholder ids the fake chain ignores. */
export const FAKE_STAKE_VENUE = 'kamino';
export const fakeStakeVenues: VenueConfig = {
  ids: { [FAKE_STAKE_VENUE]: placeholderIds(FAKE_STAKE_VENUE) },
  apyPools: {},
  apyMaxAgeMs: 3_600_000,
  apyMeanMinSamples: 3,
};

/** A second ready Solana venue of the catalog (a rebalance or autopilot target). */
export const FAKE_SECOND_VENUE = 'save';
/** `fakeStakeVenues` with `FAKE_SECOND_VENUE` configured too: two ready venues on the fake chain. */
export const fakeTwoVenues: VenueConfig = {
  ...fakeStakeVenues,
  ids: { ...fakeStakeVenues.ids, [FAKE_SECOND_VENUE]: placeholderIds(FAKE_SECOND_VENUE) },
};

export interface StakeParameters {
  readonly db: Books;
  readonly chain: FakeChain;
  readonly opportunities: readonly Opportunity[];
  readonly wallet: string;
  readonly amountMicros: bigint;
}

/** Prepares the route and lands its transaction; `settle()` then books it from the receipt. */
export async function landStake(parameters: StakeParameters) {
  const common = { db: parameters.db, adapters: parameters.chain.adapters };
  const plan = await prepareRoute({
    ...common,
    venues: fakeStakeVenues,
    opportunities: parameters.opportunities,
    autoYieldVenueId: FAKE_STAKE_VENUE,
    address: parameters.wallet,
    input: { amountMicros: parameters.amountMicros, token: 'USDC', stake: true, chain: 'solana' },
    now: new Date(),
  });
  const planId = plan.planId as string;
  const txId = parameters.chain.execute({ planId, amountMicros: parameters.amountMicros });
  return {
    planId,
    txId,
    settle: () =>
      settleLeg({
        ...common,
        venues: fakeStakeVenues,
        planId,
        legIndex: 0,
        txId,
        now: new Date(),
      }),
  };
}

/** Seeds the venue catalog and lists its opportunities, the stake venue ready among them. */
export async function seedFakeStakeOpportunities(db: Books) {
  await seedVenueCatalog(db);
  return listOpportunities({ db, venues: fakeStakeVenues, enablement: [], now: new Date() });
}

/** A settled stake of `amountMicros` for each wallet; throws unless every one is confirmed. */
export async function stakeWallets(
  parameters: Omit<StakeParameters, 'wallet'> & { readonly wallets: readonly string[] },
): Promise<void> {
  for (const wallet of parameters.wallets) {
    const settled = await (await landStake({ ...parameters, wallet })).settle();
    if (settled.status !== 'confirmed') throw new Error(`stake of ${wallet}: ${settled.status}`);
  }
}
