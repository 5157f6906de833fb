import type { z } from 'zod';
import { VENUE_CATALOG, requiredVenueIds } from '../venues/catalog';
import { EvmAddress, MoveCoinType, SolanaPubkey, SuiObjectId } from '@yieldrouter/schemas';
import type { Chain } from '@yieldrouter/schemas';
import { ConfigError } from './configError';

const idFormat = (chain: Chain, name: string): z.ZodType<string> => {
  if (chain === 'base' || chain === 'arbitrum') return EvmAddress;
  if (chain === 'solana') return SolanaPubkey;
  return name === 'receiptCoinType' ? MoveCoinType : SuiObjectId;
};

function parseJson(name: string, raw: string | undefined): Record<string, unknown> {
  if (!raw) return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new ConfigError(`invalid setting ${name}: not valid JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError(`invalid setting ${name}: must be a JSON object keyed by venue id`);
  }
  return value as Record<string, unknown>;
}

/**
 * `SVC_VENUE_IDS` (`{"<venueId>": {"<idName>": "<id>"}}`) and `SVC_APY_POOLS`
 * (`{"<venueId>": "<poolId>"}`): every venue must be in the catalog, every id name one the
 * venue needs, every id in its chain's format.
 */
export function parseVenueSettings(
  rawIds: string | undefined,
  rawPools: string | undefined,
): { ids: Record<string, Record<string, string>>; apyPools: Record<string, string> } {
  const venueById = new Map(VENUE_CATALOG.map((venue) => [venue.id, venue]));
  const ids: Record<string, Record<string, string>> = {};
  for (const [venueId, value] of Object.entries(parseJson('SVC_VENUE_IDS', rawIds))) {
    const venue = venueById.get(venueId);
    if (!venue) throw new ConfigError(`invalid setting SVC_VENUE_IDS: unknown venue ${venueId}`);
    const needed = requiredVenueIds(venue.chain, venue.standard, venue.id);
    const entries = typeof value === 'object' && value !== null ? Object.entries(value) : null;
    if (!entries) {
      throw new ConfigError(`invalid setting SVC_VENUE_IDS.${venueId}: must be an object`);
    }
    const venueIds: Record<string, string> = {};
    ids[venueId] = venueIds;
    for (const [name, id] of entries) {
      if (!needed.includes(name)) {
        throw new ConfigError(
          `invalid setting SVC_VENUE_IDS.${venueId}.${name}: ${venueId} needs ${needed.join(', ')}`,
        );
      }
      const parsed = idFormat(venue.chain, name).safeParse(id);
      if (!parsed.success) {
        throw new ConfigError(
          `invalid setting SVC_VENUE_IDS.${venueId}.${name}: ${parsed.error.issues[0]?.message}`,
        );
      }
      venueIds[name] = parsed.data;
    }
  }
  const apyPools: Record<string, string> = {};
  for (const [venueId, pool] of Object.entries(parseJson('SVC_APY_POOLS', rawPools))) {
    if (!venueById.has(venueId)) {
      throw new ConfigError(`invalid setting SVC_APY_POOLS: unknown venue ${venueId}`);
    }
    if (typeof pool !== 'string' || pool.length === 0 || pool.length > 128) {
      throw new ConfigError(`invalid setting SVC_APY_POOLS.${venueId}: must be a pool id string`);
    }
    apyPools[venueId] = pool;
  }
  return { ids, apyPools };
}
