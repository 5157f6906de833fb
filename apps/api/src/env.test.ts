import { ConfigError, parseEnv } from './env';

describe('parseEnv', () => {
  it('defaults: embedded database, everything off, port 3000', () => {
    const config = parseEnv({});
    expect(config.databaseUrl).toBeUndefined();
    expect(config.port).toBe(3000);
    expect(config.usesDevSecret).toBe(true);
    expect(config.switches.solana).toEqual({ executionEnabled: false, broadcastEnabled: false });
  });

  it('drain timeout on SIGTERM: 25 s by default, 1 s … 10 min', () => {
    expect(parseEnv({}).drainTimeoutMs).toBe(25_000);
    expect(parseEnv({ SVC_DRAIN_TIMEOUT_MS: '3000' }).drainTimeoutMs).toBe(3000);
    expect(() => parseEnv({ SVC_DRAIN_TIMEOUT_MS: '10' })).toThrow(/SVC_DRAIN_TIMEOUT_MS/);
    expect(() => parseEnv({ SVC_DRAIN_TIMEOUT_MS: 'soon' })).toThrow(/SVC_DRAIN_TIMEOUT_MS/);
  });

  it('Idempotency-Key claim window: 30 s by default, 1 s … 10 min', () => {
    expect(parseEnv({}).idempotencyLockMs).toBe(30_000);
    expect(parseEnv({ SVC_IDEMPOTENCY_LOCK_MS: '10000' }).idempotencyLockMs).toBe(10_000);
    expect(() => parseEnv({ SVC_IDEMPOTENCY_LOCK_MS: '999' })).toThrow(/SVC_IDEMPOTENCY_LOCK_MS/);
    expect(() => parseEnv({ SVC_IDEMPOTENCY_LOCK_MS: '600001' })).toThrow(
      /SVC_IDEMPOTENCY_LOCK_MS/,
    );
  });

  it('refuses unknown SVC_ settings', () => {
    expect(() => parseEnv({ SVC_BROADCAST: 'true' })).toThrow(
      /unknown setting\(s\): SVC_BROADCAST/,
    );
  });

  it('refuses turning broadcast or execution on for Map chains', () => {
    expect(() => parseEnv({ SVC_BASE_BROADCAST_ENABLED: 'true' })).toThrow(ConfigError);
    expect(() => parseEnv({ SVC_ARBITRUM_EXECUTION_ENABLED: '1' })).toThrow(/Map chains/);
  });

  it('refuses malformed on-chain ids instead of serving them', () => {
    expect(() => parseEnv({ SVC_BASE_REGISTRY_ADDRESS: '0x123' })).toThrow(/base.registryAddress/);
  });

  it('client versions: defaults, validated semvers, min not above latest, urls', () => {
    expect(parseEnv({}).clientVersions).toEqual({
      latestVersion: '1.0.0',
      minSupportedVersion: '1.0.0',
      install: null,
      releaseUrl: null,
      repoUrl: null,
    });
    expect(
      parseEnv({
        SVC_API_LATEST_VERSION: '1.4.0',
        SVC_API_MIN_SUPPORTED_VERSION: '1.2.0',
        SVC_CLIENT_REPO_URL: 'https://github.com/example/yield-router',
      }).clientVersions,
    ).toMatchObject({ latestVersion: '1.4.0', minSupportedVersion: '1.2.0' });
    expect(() => parseEnv({ SVC_API_LATEST_VERSION: '1.4' })).toThrow(/SVC_API_LATEST_VERSION/);
    expect(() => parseEnv({ SVC_API_MIN_SUPPORTED_VERSION: '1.1.0' })).toThrow(
      /SVC_API_MIN_SUPPORTED_VERSION: above SVC_API_LATEST_VERSION/,
    );
    expect(() => parseEnv({ SVC_CLIENT_RELEASE_URL: 'ftp://x' })).toThrow(/SVC_CLIENT_RELEASE_URL/);
    expect(parseEnv({ SVC_CLIENT_INSTALL: 'npm i x' }).clientVersions.install).toBe('npm i x');
    // It goes into a header-safe message: no control characters (a newline, say).
    expect(() => parseEnv({ SVC_CLIENT_INSTALL: 'npm i\nrm' })).toThrow(/SVC_CLIENT_INSTALL/);
  });

  it('requires a real secret in production', () => {
    expect(() => parseEnv({ NODE_ENV: 'production' })).toThrow(/SVC_API_KEY_SECRET/);
  });

  it('explains bad SVC_API_KEYS', () => {
    expect(() => parseEnv({ SVC_API_KEYS: '[{"key":"short","role":"owner"}]' })).toThrow(
      /SVC_API_KEYS\[0.key\]/,
    );
    expect(() => parseEnv({ SVC_API_KEYS: 'nope' })).toThrow(/not valid JSON/);
  });

  it('reads venue ids and APY pools, refusing unknown venues, id names and formats', () => {
    const config = parseEnv({
      SVC_VENUE_IDS: '{"morpho":{"vault":"0x52908400098527886E0F7030069857D2E4169EE7"}}',
      SVC_APY_POOLS: '{"kamino":"pool-1"}',
    });
    expect(config.venues.ids).toEqual({
      morpho: { vault: '0x52908400098527886E0F7030069857D2E4169EE7' },
    });
    expect(config.venues.apyPools).toEqual({ kamino: 'pool-1' });
    expect(() => parseEnv({ SVC_VENUE_IDS: '{"nope":{}}' })).toThrow(/unknown venue nope/);
    expect(() => parseEnv({ SVC_VENUE_IDS: '{"morpho":{"pool":"0x"}}' })).toThrow(
      /SVC_VENUE_IDS.morpho.pool: morpho needs vault/,
    );
    expect(() => parseEnv({ SVC_VENUE_IDS: '{"kamino":{"adapter":"0xabc"}}' })).toThrow(
      /SVC_VENUE_IDS.kamino.adapter/,
    );
    expect(() => parseEnv({ SVC_VENUE_IDS: '[1]' })).toThrow(/JSON object keyed by venue id/);
    expect(() => parseEnv({ SVC_APY_POOLS: '{"kamino":7}' })).toThrow(/SVC_APY_POOLS.kamino/);
    expect(() => parseEnv({ SVC_APY_BASE_URL: 'ftp://x' })).toThrow(/SVC_APY_BASE_URL/);
  });

  it('webhooks: sealed with the API key secret unless told; private targets never in production', () => {
    const defaults = parseEnv({ SVC_API_KEY_SECRET: 'a'.repeat(32) });
    expect(defaults.webhooks).toEqual({
      keySecret: 'a'.repeat(32),
      allowInsecureUrls: true,
      allowPrivateUrls: false,
      allowedPorts: [],
      rotationOverlapMs: 86_400_000,
      timeoutMs: 10_000,
    });
    const production = {
      NODE_ENV: 'production',
      SVC_API_KEY_SECRET: 'a'.repeat(32),
      SVC_WEBHOOK_KEY_SECRET: 'b'.repeat(32),
    };
    expect(parseEnv(production).webhooks).toMatchObject({
      keySecret: 'b'.repeat(32),
      allowInsecureUrls: false,
    });
    expect(() => parseEnv({ ...production, SVC_WEBHOOK_ALLOW_PRIVATE_URLS: 'true' })).toThrow(
      /SVC_WEBHOOK_ALLOW_PRIVATE_URLS/,
    );
    expect(() => parseEnv({ SVC_WEBHOOK_KEY_SECRET: 'short' })).toThrow(/SVC_WEBHOOK_KEY_SECRET/);
  });
});
