import { ConfigError, parseKeeperEnv } from './env';

const base = { DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/keeper' };

describe('parseKeeperEnv', () => {
  it('defaults: prefix, cadences from the job catalog, 30 min give-up window', () => {
    const config = parseKeeperEnv(base);
    expect(config.keeper).toMatchObject({
      prefix: 'svc:keeper',
      health: { host: '0.0.0.0', port: 3001 },
      settlement: {
        pageSize: 100,
        concurrency: 16,
        giveUpAfterMs: 30 * 60_000,
        releasedWatchMs: 7 * 24 * 3_600_000,
        unsignedTtlMs: 24 * 3_600_000,
      },
      everyMs: {
        'apy-refresh': 15 * 60_000,
        'settlement-watch': 15_000,
        'leg-expiry': 60_000,
        'idempotency-sweep': 60 * 60_000,
      },
    });
    expect(config.chains.solana.rpcUrl).toBeUndefined();
  });

  it('reads the drain timeout it shares with the API, refusing a bad one', () => {
    expect(parseKeeperEnv(base).drainTimeoutMs).toBe(25_000);
    expect(parseKeeperEnv({ ...base, SVC_DRAIN_TIMEOUT_MS: '4000' }).drainTimeoutMs).toBe(4000);
    expect(() => parseKeeperEnv({ ...base, SVC_DRAIN_TIMEOUT_MS: '-1' })).toThrow(
      /SVC_DRAIN_TIMEOUT_MS/,
    );
  });

  it('reads a cadence per job; 0 turns a schedule off', () => {
    const config = parseKeeperEnv({
      ...base,
      SVC_KEEPER_SETTLEMENT_WATCH_EVERY_MS: '2000',
      SVC_KEEPER_APY_REFRESH_EVERY_MS: '0',
    });
    expect(config.keeper.everyMs['settlement-watch']).toBe(2000);
    expect(config.keeper.everyMs['apy-refresh']).toBe(0);
  });

  it('refuses unknown keeper settings and invalid values with the setting named', () => {
    expect(() => parseKeeperEnv({ ...base, SVC_KEEPER_EVERY: '1' })).toThrow(
      /unknown setting\(s\): SVC_KEEPER_EVERY/,
    );
    expect(() => parseKeeperEnv({ ...base, SVC_KEEPER_SETTLEMENT_WATCH_EVERY_MS: '5' })).toThrow(
      /SVC_KEEPER_SETTLEMENT_WATCH_EVERY_MS: 0 \(off\)/,
    );
    expect(() => parseKeeperEnv({ ...base, SVC_KEEPER_PREFIX: 'a b' })).toThrow(
      /SVC_KEEPER_PREFIX/,
    );
    expect(() => parseKeeperEnv({ ...base, SVC_SOLANA_RPC_URL: 'ftp://x' })).toThrow(
      /SVC_SOLANA_RPC_URL/,
    );
  });

  it('shares the service settings with the API (API-only settings are the API’s to check)', () => {
    const config = parseKeeperEnv({
      ...base,
      SVC_API_KEYS: '[]',
      SVC_VENUE_IDS: '{"morpho":{"vault":"0x52908400098527886E0F7030069857D2E4169EE7"}}',
    });
    expect(config.venues.ids).toEqual({
      morpho: { vault: '0x52908400098527886E0F7030069857D2E4169EE7' },
    });
    expect(() => parseKeeperEnv({ ...base, SVC_VENUE_IDS: '{"nope":{}}' })).toThrow(
      /unknown venue nope/,
    );
  });

  it('reads how often the bridge watch looks at a failed bridge (5 min unless set)', () => {
    expect(parseKeeperEnv(base).bridges.failedWatchMs).toBe(5 * 60_000);
    const config = parseKeeperEnv({ ...base, SVC_BRIDGE_FAILED_WATCH_MS: '120000' });
    expect(config.bridges.failedWatchMs).toBe(120_000);
    expect(() => parseKeeperEnv({ ...base, SVC_BRIDGE_FAILED_WATCH_MS: '10' })).toThrow(
      /SVC_BRIDGE_FAILED_WATCH_MS/,
    );
  });

  it('needs PostgreSQL', () => {
    expect(() => parseKeeperEnv({})).toThrow(ConfigError);
    expect(() => parseKeeperEnv({})).toThrow(/DATABASE_URL is required/);
  });
});
