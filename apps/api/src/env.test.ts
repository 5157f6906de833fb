import { ConfigError, parseEnv } from './env';

describe('parseEnv', () => {
  it('defaults: embedded database, everything off, port 3000', () => {
    const config = parseEnv({});
    expect(config.databaseUrl).toBeUndefined();
    expect(config.port).toBe(3000);
    expect(config.usesDevSecret).toBe(true);
    expect(config.switches.solana).toEqual({ executionEnabled: false, broadcastEnabled: false });
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

  it('requires a real secret in production', () => {
    expect(() => parseEnv({ NODE_ENV: 'production' })).toThrow(/SVC_API_KEY_SECRET/);
  });

  it('explains bad SVC_API_KEYS', () => {
    expect(() => parseEnv({ SVC_API_KEYS: '[{"key":"short","role":"owner"}]' })).toThrow(
      /SVC_API_KEYS\[0.key\]/,
    );
    expect(() => parseEnv({ SVC_API_KEYS: 'nope' })).toThrow(/not valid JSON/);
  });
});
