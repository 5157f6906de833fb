import type { Localnet } from '@yieldrouter/chain-beds/localnet';
import { DEFAULT_YIELDS_POOLS } from '@yieldrouter/chain-beds/yields';
import {
  ServiceSettings,
  createDefiLlamaReader,
  readSettings,
  refreshApy,
  seedVenueCatalog,
  serviceConfig,
} from '@yieldrouter/engine';
import type { Books } from '@yieldrouter/ledger';

const DAY_MS = 24 * 3600 * 1000;

/**
 * Thirty days of APY history through the product's own refresh path (`refreshApy`, the keeper's
 * job) after the venue catalog is seeded as the API seeds it, reading the local yields bed once per past day with a clock set to that day. Only the
 * bed's pools move from day to day (a slow swing around their configured APY); every stored
 * number is what the refresh read from the bed.
 */
export async function seedApyHistory(
  db: Books,
  localnet: Localnet,
  env: Readonly<Record<string, string | undefined>>,
  days = 30,
): Promise<number> {
  const settings = readSettings(ServiceSettings, env, { inScope: () => false });
  const config = serviceConfig(settings);
  await seedVenueCatalog(db);
  const today = Date.now();
  let samples = 0;
  // Days 29 … 1 here; today's reading comes from the keeper once the API runs.
  for (let day = days - 1; day >= 1; day -= 1) {
    const swing = Math.sin(day / 4);
    localnet.yields.setPools(
      DEFAULT_YIELDS_POOLS.map((pool, index) => {
        if (pool.apy === null || pool.apyBase === null) return pool;
        const delta = Math.round((swing * 0.6 + index * 0.05 * Math.cos(day)) * 100) / 100;
        return { ...pool, apy: pool.apy + delta, apyBase: pool.apyBase + delta };
      }),
    );
    const at = new Date(today - day * DAY_MS);
    // The reader stamps each reading with its clock: the same past day.
    const reader = createDefiLlamaReader({
      baseUrl: localnet.yields.url,
      timeoutMs: 4000,
      now: () => at,
    });
    const result = await refreshApy({
      db: db,
      reader,
      venues: config.venues,
      now: () => at,
    });
    samples += result.ok;
  }
  localnet.yields.setPools(DEFAULT_YIELDS_POOLS);
  return samples;
}
