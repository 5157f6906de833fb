// Test support: the Solana bed (litesvm) with the router deployed, a PostgreSQL database with
// the venue catalog, the bed's adapter and the venues a test deploys on it: what the engine's
// Solana end-to-end tests (deferred legs, kamino rounding, lend rounding) set up alike.
import { deployYieldRouter, startSolanaBed } from '@yieldrouter/chain-beds/solana';
import type { SolanaBed, SolanaRouterDeployment } from '@yieldrouter/chain-beds/solana';
import { bedAdapter } from '@yieldrouter/chain-solana/src/testing/bedAdapter';
import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import type { ChainAdapters } from '../../chains/chainsConfig';
import { seedVenueCatalog } from '../../venues/seedVenueCatalog';
import type { VenueConfig } from '../../venues/venueConfig';

export interface SolanaEngineBed<V> {
  readonly test: TestDatabase;
  readonly solana: SolanaBed;
  readonly router: SolanaRouterDeployment;
  /** The bed's Solana adapter (the only chain these tests use). */
  readonly adapters: ChainAdapters;
  /** The deployed venues' ids, as the service is configured with them. */
  readonly venues: VenueConfig;
  /** What the test's `deploy` returned: its own handles on the venues it deployed. */
  readonly deployed: V;
  /** Drops the database and stops the bed. */
  readonly stop: () => Promise<void>;
}

/**
 * Starts the bed and a test database side by side, seeds the venue catalog, deploys the router
 * and then the test's venues (`deploy`: their ids by venue id, and whatever else the test keeps
 * of them). What started is stopped again when a step fails.
 */
export async function startSolanaEngineBed<V extends { readonly ids: VenueConfig['ids'] }>(
  deploy: (solana: SolanaBed, router: SolanaRouterDeployment) => V,
): Promise<SolanaEngineBed<V>> {
  const [test, solana] = await Promise.all([createTestDatabase(), startSolanaBed()]);
  const stop = async () => {
    await Promise.all([test.drop(), solana.stop()]);
  };
  try {
    await seedVenueCatalog(test.db);
    const router = deployYieldRouter(solana);
    const deployed = deploy(solana, router);
    const adapters = { solana: bedAdapter({ ...solana, router }) } as ChainAdapters;
    const venues: VenueConfig = {
      ids: deployed.ids,
      apyPools: {},
      apyMaxAgeMs: 3_600_000,
      apyMeanMinSamples: 1,
    };
    return { test, solana, router, adapters, venues, deployed, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
