import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { VENUE_CATALOG, configurableVenueIds } from '../venues/catalog';
import { ConfigError } from './configError';
import { venueIdFormat } from './venueSettings';

/** Where the profiles that ship with the repo live (`profiles/<name>/`). */
export const PROFILES_DIR = path.resolve(__dirname, '../../../../profiles');

/** One id of a profile file: the id (null where it is ours, not the protocol's) and its source. */
const ProfileEntry = z.strictObject({
  id: z.string().nullable(),
  source: z.string().min(1),
});

/** A profile: the ids it sets, per venue, and the ids it leaves unset with why (its `source`). */
export interface VenueProfile {
  /** The profile's directory. */
  readonly dir: string;
  readonly ids: Readonly<Record<string, Readonly<Record<string, string>>>>;
  readonly unset: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/** `SVC_PROFILE`'s directory: a name under `profiles/` (`mainnet`), or a path to a directory. */
export function venueProfileDir(setting: string, profilesDir = PROFILES_DIR): string {
  return /^[a-z0-9][a-z0-9-]*$/.test(setting)
    ? path.join(profilesDir, setting)
    : path.resolve(setting);
}

/**
 * Reads a venue profile (`SVC_PROFILE`): one `<venueId>.json` per catalog venue, each
 * `{"<idName>": {"id": "<id>" | null, "source": "<where the id comes from>"}}`. Every file must
 * name a catalog venue, every id name one the venue needs, every id be in its chain's format;
 * anything else stops the service with a one-line `ConfigError` naming the file, venue and id
 * name. A null id is one the profile cannot set (ours, not the protocol's): it stays missing.
 *
 * @example
 * loadVenueProfile('mainnet').ids['aave-v3'] // { pool: '0xA238…', aToken: '0x4e65…' }
 */
export function loadVenueProfile(setting: string, profilesDir = PROFILES_DIR): VenueProfile {
  const dir = venueProfileDir(setting, profilesDir);
  const fail = (message: string): never => {
    throw new ConfigError(`invalid setting SVC_PROFILE: ${message}`);
  };
  const isDir = (() => {
    try {
      return statSync(dir).isDirectory();
    } catch {
      return false;
    }
  })();
  if (!isDir) fail(`${dir} is not a profile directory`);
  const venueById = new Map(VENUE_CATALOG.map((venue) => [venue.id, venue]));
  const ids: Record<string, Record<string, string>> = {};
  const unset: Record<string, Record<string, string>> = {};
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()) {
    const where = path.join(dir, file);
    const venueId = file.slice(0, -'.json'.length);
    const venue = venueById.get(venueId) ?? fail(`${where}: ${venueId} is not a catalog venue`);
    let body: unknown;
    try {
      body = JSON.parse(readFileSync(where, 'utf8'));
    } catch {
      fail(`${where}: not valid JSON`);
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      fail(`${where}: must be a JSON object keyed by id name`);
    }
    const needed = configurableVenueIds(venue.chain, venue.standard, venue.id);
    for (const [name, raw] of Object.entries(body as Record<string, unknown>)) {
      const at = `${where}: ${venueId}.${name}`;
      if (!needed.includes(name)) fail(`${at}: ${venueId} needs ${needed.join(', ')}`);
      const entry = ProfileEntry.safeParse(raw);
      if (!entry.success) fail(`${at}: must be {"id": string | null, "source": string}`);
      const { id, source } = entry.data as z.infer<typeof ProfileEntry>;
      if (id === null) {
        (unset[venueId] ??= {})[name] = source;
        continue;
      }
      const parsed = venueIdFormat(venue.chain, name).safeParse(id);
      if (!parsed.success) fail(`${at}: ${parsed.error.issues[0]?.message}`);
      (ids[venueId] ??= {})[name] = id;
    }
  }
  return { dir, ids, unset };
}
