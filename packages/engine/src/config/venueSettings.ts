import { z } from 'zod';
import { VENUE_CATALOG, configurableVenueIds } from '../venues/catalog';
import { EvmAddress, SolanaPubkey, SuiObjectId } from '@yieldrouter/schemas';
import type { Chain } from '@yieldrouter/schemas';
import { ConfigError } from './configError';

/** A Move type, generics allowed (`0x…::reserve::CToken<0x…::suilend::MAIN_POOL, 0x…::usdc::USDC>`). */
const MoveType = z.string().regex(/^0x[0-9a-fA-F]{1,64}::\w+::\w+(<[\w:<>, ]+>)?$/, {
  error: 'must be a Move type 0x<address>::<module>::<name>[<type arguments>]',
});
/** Sui venues' numeric ids: Suilend's reserve index, Navi's asset id. */
const IdIndex = z.string().regex(/^\d{1,20}$/, { error: 'must be a non-negative integer' });

/** The format of a venue's id `name` on `chain`. */
export const venueIdFormat = (chain: Chain, name: string): z.ZodType<string> => {
  if (chain === 'base' || chain === 'arbitrum') return EvmAddress;
  if (chain === 'solana') return SolanaPubkey;
  if (name === 'receiptCoinType' || name === 'lendingMarketType') return MoveType;
  if (name === 'reserveIndex' || name === 'assetId') return IdIndex;
  return SuiObjectId;
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
 * venue needs, every id in its chain's format. `profileIds` (a checked `SVC_PROFILE`) come
 * first; an id in `SVC_VENUE_IDS` overrides the profile's, id by id.
 */
export function parseVenueSettings(
  rawIds: string | undefined,
  rawPools: string | undefined,
  profileIds: Readonly<Record<string, Readonly<Record<string, string>>>> = {},
): { ids: Record<string, Record<string, string>>; apyPools: Record<string, string> } {
  const venueById = new Map(VENUE_CATALOG.map((venue) => [venue.id, venue]));
  const ids: Record<string, Record<string, string>> = Object.fromEntries(
    Object.entries(profileIds).map(([venueId, venueIds]) => [venueId, { ...venueIds }]),
  );
  for (const [venueId, value] of Object.entries(parseJson('SVC_VENUE_IDS', rawIds))) {
    const venue = venueById.get(venueId);
    if (!venue) throw new ConfigError(`invalid setting SVC_VENUE_IDS: unknown venue ${venueId}`);
    const needed = configurableVenueIds(venue.chain, venue.standard, venue.id);
    const entries = typeof value === 'object' && value !== null ? Object.entries(value) : null;
    if (!entries) {
      throw new ConfigError(`invalid setting SVC_VENUE_IDS.${venueId}: must be an object`);
    }
    const venueIds: Record<string, string> = ids[venueId] ?? {};
    ids[venueId] = venueIds;
    for (const [name, id] of entries) {
      if (!needed.includes(name)) {
        throw new ConfigError(
          `invalid setting SVC_VENUE_IDS.${venueId}.${name}: ${venueId} needs ${needed.join(', ')}`,
        );
      }
      const parsed = venueIdFormat(venue.chain, name).safeParse(id);
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
