import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as AaveV3Arbitrum from '@aave-dao/aave-address-book/AaveV3Arbitrum';
import * as AaveV3Base from '@aave-dao/aave-address-book/AaveV3Base';
import { publicEnvironments } from '@moonwell-fi/moonwell-sdk/environments';
import { NATIVE_USDC } from '@yieldrouter/schemas';
import { VENUE_CATALOG, requiredVenueIds } from '../venues/catalog';
import { ConfigError } from './configError';
import { PROFILES_DIR, loadVenueProfile } from './venueProfile';
import { parseVenueSettings } from './venueSettings';

const MAINNET = path.join(PROFILES_DIR, 'mainnet');
const profileFile = (venueId: string) =>
  JSON.parse(readFileSync(path.join(MAINNET, `${venueId}.json`), 'utf8')) as Record<
    string,
    { id: string | null; source: string }
  >;

describe('the mainnet profile (profiles/mainnet)', () => {
  const files = readdirSync(MAINNET).filter((name) => name.endsWith('.json'));

  it('loads: every file a catalog venue, every id in its chain format', () => {
    expect(files.length).toBeGreaterThan(0);
    expect(() => loadVenueProfile('mainnet')).not.toThrow();
  });

  // Generic over the catalog: whichever venue files exist at merge are checked the same way.
  it.each(VENUE_CATALOG.map((venue) => [venue.id, venue] as const))(
    '%s: names every id the catalog requires, with a source; an unset id names its setting',
    (venueId, venue) => {
      if (!files.includes(`${venueId}.json`)) return;
      const file = profileFile(venueId);
      expect(Object.keys(file).sort()).toEqual(
        [...requiredVenueIds(venue.chain, venue.standard, venue.id)].sort(),
      );
      for (const [name, entry] of Object.entries(file)) {
        expect(entry.source.length).toBeGreaterThan(0);
        if (entry.id === null) expect(entry.source).toContain(`SVC_VENUE_IDS.${venueId}.${name}`);
      }
    },
  );

  // Each id sourced from an npm package installed here is read back from that package.
  const fromPackages: Record<string, () => string> = {
    'aave-v3.pool': () => AaveV3Base.POOL,
    'aave-v3.aToken': () => AaveV3Base.ASSETS.USDC.A_TOKEN,
    'morpho.vault': () => publicEnvironments.base.config.tokens.mwUSDC.address,
  };
  it.each(Object.entries(fromPackages))('%s is what its package publishes', (key, read) => {
    const [venueId, name] = key.split('.') as [string, string];
    const entry = profileFile(venueId)[name];
    expect(entry?.id).toBe(read());
    expect(entry?.source).toMatch(/^@[a-z0-9-]+\/[a-z0-9-]+@\d/);
  });

  it('every EVM id sourced from an npm package is read back above', () => {
    const evm = VENUE_CATALOG.filter(
      (venue) => venue.chain === 'base' || venue.chain === 'arbitrum',
    );
    for (const venue of evm) {
      if (!files.includes(`${venue.id}.json`)) continue;
      for (const [name, entry] of Object.entries(profileFile(venue.id))) {
        if (entry.id !== null && entry.source.startsWith('@')) {
          expect(Object.keys(fromPackages)).toContain(`${venue.id}.${name}`);
        }
      }
    }
  });

  // Every id of every catalog-ready venue is set, so the profile alone makes those venues ready
  // (Suilend's reserve index and Silo's vault are not needed: their legs read them from the
  // market on chain).
  it('every catalog-ready venue has every id it needs', () => {
    const unset = VENUE_CATALOG.filter((venue) => venue.readiness === 'ready').flatMap((venue) => {
      expect(files).toContain(`${venue.id}.json`);
      const file = profileFile(venue.id);
      return requiredVenueIds(venue.chain, venue.standard, venue.id)
        .filter((name) => typeof file[name]?.id !== 'string')
        .map((name) => `${venue.id}.${name}`);
    });
    expect(unset).toEqual([]);
    // Listed venues are never enterable, whatever their ids (catalog notReadyReason / docs).
    const listed = VENUE_CATALOG.filter((venue) => venue.readiness !== 'ready').map((v) => v.id);
    expect(listed.sort()).toEqual(['drift']);
  });

  it('the USDC the service defaults to on Base and Arbitrum is the reserve Aave lists', () => {
    expect(NATIVE_USDC.base).toBe(AaveV3Base.ASSETS.USDC.UNDERLYING);
    expect(NATIVE_USDC.arbitrum).toBe(AaveV3Arbitrum.ASSETS.USDCn.UNDERLYING);
    expect(NATIVE_USDC.base).toBe(publicEnvironments.base.config.tokens.USDC.address);
  });
});

describe('loadVenueProfile refuses a bad profile in one line naming the file, venue and id', () => {
  const profileWith = (files: Record<string, unknown>) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'profile-'));
    for (const [name, body] of Object.entries(files)) {
      writeFileSync(path.join(dir, name), typeof body === 'string' ? body : JSON.stringify(body));
    }
    return dir;
  };
  const refusal = (dir: string) => {
    try {
      loadVenueProfile(dir);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('loaded');
  };

  it('an id of the wrong format', () => {
    const dir = profileWith({
      'aave-v3.json': {
        pool: { id: '0x1234', source: 'test' },
        aToken: { id: null, source: 'test' },
      },
    });
    const message = refusal(dir);
    expect(message).toContain('SVC_PROFILE');
    expect(message).toContain(path.join(dir, 'aave-v3.json'));
    expect(message).toContain('aave-v3.pool');
    expect(message).not.toContain('\n');
  });

  it('a Solana id on a Solana venue is checked as a public key', () => {
    const dir = profileWith({ 'kamino.json': { venueProgram: { id: '0xabc', source: 's' } } });
    expect(refusal(dir)).toContain('kamino.venueProgram');
  });

  it('an unknown venue, an id name the venue does not need, a bad entry, bad JSON', () => {
    expect(refusal(profileWith({ 'nope.json': {} }))).toMatch(
      /nope\.json: nope is not a catalog venue/,
    );
    expect(refusal(profileWith({ 'morpho.json': { pool: { id: null, source: 's' } } }))).toMatch(
      /morpho\.pool: morpho needs vault/,
    );
    expect(refusal(profileWith({ 'morpho.json': { vault: '0x12' } }))).toMatch(
      /morpho\.vault: must be \{"id"/,
    );
    expect(refusal(profileWith({ 'morpho.json': '{' }))).toMatch(/morpho\.json: not valid JSON/);
    expect(refusal(path.join(tmpdir(), 'no-such-profile-dir'))).toMatch(/not a profile directory/);
  });
});

describe('SVC_VENUE_IDS over a profile', () => {
  it('overrides the profile id by id; the profile fills the rest', () => {
    const profile = loadVenueProfile('mainnet');
    const pool = '0x52908400098527886E0F7030069857D2E4169EE7';
    const { ids } = parseVenueSettings(
      JSON.stringify({ 'aave-v3': { pool } }),
      undefined,
      profile.ids,
    );
    expect(ids['aave-v3']).toEqual({ pool, aToken: AaveV3Base.ASSETS.USDC.A_TOKEN });
    expect(ids['morpho']).toEqual(profile.ids['morpho']);
    // The profile's own ids are not changed by the override.
    expect(profile.ids['aave-v3']?.pool).toBe(AaveV3Base.POOL);
  });
});

describe("Suilend's reserve index: not needed, still accepted", () => {
  it('is not a required id, and a pinned one is taken from SVC_VENUE_IDS or a profile', () => {
    expect(requiredVenueIds('sui', 'router-adapter', 'suilend')).not.toContain('reserveIndex');
    const { ids } = parseVenueSettings('{"suilend":{"reserveIndex":"7"}}', undefined, {
      suilend: { package: '0x1' },
    });
    expect(ids['suilend']).toEqual({ package: '0x1', reserveIndex: '7' });
  });

  it('a pinned index of the wrong format stops the service naming it', () => {
    expect(() => parseVenueSettings('{"suilend":{"reserveIndex":"-1"}}', undefined)).toThrow(
      /SVC_VENUE_IDS\.suilend\.reserveIndex: must be a non-negative integer/,
    );
    expect(() => parseVenueSettings('{"navi":{"reserveIndex":"1"}}', undefined)).toThrow(
      /SVC_VENUE_IDS\.navi\.reserveIndex: navi needs/,
    );
  });
});

describe("Silo v2: the market's SiloConfig is the id; its USDC silo is read on chain", () => {
  it('needs siloConfig, takes an optional vault (checked on chain), refuses a malformed one', () => {
    expect(requiredVenueIds('arbitrum', 'erc4626', 'silo')).toEqual(['siloConfig']);
    expect(requiredVenueIds('arbitrum', 'erc4626', 'fluid')).toEqual(['vault']);
    const vault = '0x1111111111111111111111111111111111111111';
    const { ids } = parseVenueSettings(JSON.stringify({ silo: { vault } }), undefined, {
      silo: { siloConfig: '0xDc62a3B19898C55709E3a5d6BDbc336F555Db84D' },
    });
    expect(ids['silo']).toEqual({
      siloConfig: '0xDc62a3B19898C55709E3a5d6BDbc336F555Db84D',
      vault,
    });
    expect(() => parseVenueSettings('{"silo":{"vault":"0x12"}}', undefined)).toThrow(
      /SVC_VENUE_IDS\.silo\.vault/,
    );
  });

  it("the profile's SiloConfig is Silo_ARB_USDC_V2 from silo-contracts-v2, at a commit", () => {
    const entry = profileFile('silo')['siloConfig'];
    expect(entry?.id).toBe('0xDc62a3B19898C55709E3a5d6BDbc336F555Db84D');
    expect(entry?.source).toMatch(
      /^silo-finance\/silo-contracts-v2 @ [0-9a-f]{40} silo-core\/deploy\/silo\/_siloDeployments\.json arbitrum_one\.Silo_ARB_USDC_V2/,
    );
  });
});
