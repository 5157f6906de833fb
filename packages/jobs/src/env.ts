import { ConfigError, ServiceSettings, readSettings, serviceConfig } from '@yieldrouter/engine';
import type { ServiceConfig } from '@yieldrouter/engine';
import { KeeperSettingsSchema, keeperSettings } from './settings';
import type { KeeperSettings } from './settings';

export { ConfigError };

export interface KeeperConfig extends ServiceConfig {
  readonly databaseUrl: string;
  readonly keeper: KeeperSettings;
}

const EnvSchema = ServiceSettings.extend(KeeperSettingsSchema.shape);

/**
 * The keeper process's settings: the service's shared settings (database, Redis, chains,
 * venues, APY) and its own `SVC_KEEPER_*`. An unknown `SVC_KEEPER_*` or an invalid value fails
 * with a clear message; the other `SVC_*` variables belong to the API, which checks them.
 */
export function parseKeeperEnv(source: Readonly<Record<string, string | undefined>>): KeeperConfig {
  const { service, keeper } = parseKeeperSettings(source);
  if (!service.databaseUrl) {
    throw new ConfigError(
      'DATABASE_URL is required: the keeper runs on PostgreSQL (on the embedded database the API runs the keeper inside its own process)',
    );
  }
  return { ...service, databaseUrl: service.databaseUrl, keeper };
}

/** The shared and keeper settings, whichever database they name (the CLIs take PGlite too). */
export function parseKeeperSettings(source: Readonly<Record<string, string | undefined>>): {
  readonly service: ServiceConfig;
  readonly keeper: KeeperSettings;
} {
  const env = readSettings(EnvSchema, source, {
    inScope: (name) => name.startsWith('SVC_KEEPER_'),
  });
  return { service: serviceConfig(env), keeper: keeperSettings(env) };
}
