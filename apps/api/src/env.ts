import { z } from 'zod';
import type { ClientVersionPolicy, Role } from '@yieldrouter/schemas';
import { API_VERSION, SemverString, compareSemver } from '@yieldrouter/schemas';
import {
  BooleanSetting,
  ConfigError,
  DEVELOPMENT_SECRET,
  ServiceSettings,
  commaListSetting,
  readSettings,
  serviceConfig,
} from '@yieldrouter/engine';
import type { ServiceConfig } from '@yieldrouter/engine';
import { KeeperSettingsSchema, keeperSettings } from '@yieldrouter/jobs';
import type { Toolset } from '@yieldrouter/mcp-server/toolsets';
import { ToolsetSetting } from '@yieldrouter/mcp-server/toolsets';
import type { KeeperSettings } from '@yieldrouter/jobs';

const StaticKey = z.strictObject({
  key: z.string().min(16),
  role: z.enum(['owner', 'agent', 'keeper']),
  wallets: z.array(z.string().min(1)).default([]),
  characters: z.record(z.string(), z.string()).optional(),
});

/** The API's settings: the shared ones (engine `ServiceSettings`), its own and the keeper's. */
export const EnvSchema = ServiceSettings.extend({
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  SVC_DATA_DIR: z.string().default('.data/pglite'),
  SVC_API_KEYS: z.string().optional(),
  SVC_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  SVC_RATE_LIMIT_PUBLIC: z.coerce.number().int().min(1).default(600),
  SVC_RATE_LIMIT_KEYED: z.coerce.number().int().min(1).default(1200),
  SVC_BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(10_485_760).default(65_536),
  SVC_TRUST_PROXY: BooleanSetting,
  SVC_DISCOVERY_CACHE_MS: z.coerce.number().int().min(0).max(300_000).default(5000),
  SVC_MCP_POLL_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  SVC_MCP_TOOLSET: ToolsetSetting,
  SVC_API_KEY_CACHE_MS: z.coerce.number().int().min(0).max(300_000).default(30_000),
  SVC_AUTH_FREE_FAILURES: z.coerce.number().int().min(1).max(10_000).default(10),
  SVC_AUTH_BACKOFF_MAX_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  SVC_QUEUE_DASHBOARD_WRITE: BooleanSetting,
  SVC_CORS_ORIGINS: commaListSetting(
    z
      .url({ protocol: /^https?$/ })
      .regex(/^https?:\/\/[^/]+$/, 'an origin: scheme://host[:port], no path'),
  ),
  SVC_API_LATEST_VERSION: SemverString.default(API_VERSION),
  SVC_API_MIN_SUPPORTED_VERSION: SemverString.default('1.0.0'),
  SVC_CLIENT_INSTALL: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[\x20-\x7E]+$/, 'printable ASCII')
    .optional(),
  SVC_CLIENT_RELEASE_URL: z
    .url({ protocol: /^https?$/ })
    .max(500)
    .optional(),
  SVC_CLIENT_REPO_URL: z
    .url({ protocol: /^https?$/ })
    .max(500)
    .optional(),
}).extend(KeeperSettingsSchema.shape);

/** What `/svc/version` and `/svc/sdk` tell clients, and the version headers of every answer. */
export interface ClientVersionSettings extends ClientVersionPolicy {
  readonly releaseUrl: string | null;
  readonly repoUrl: string | null;
}

export interface StaticApiKey {
  readonly key: string;
  readonly role: Role;
  readonly wallets: readonly string[];
  readonly characters: Readonly<Record<string, string>>;
}

export interface ApiConfig extends ServiceConfig {
  readonly host: string;
  readonly port: number;
  readonly dataDir: string;
  readonly apiKeySecret: string;
  /** How long a key lookup is cached: a revoked key stops working within this. */
  readonly apiKeyCacheMs: number;
  readonly usesDevSecret: boolean;
  readonly staticKeys: readonly StaticApiKey[];
  readonly rateLimit: { windowSeconds: number; publicLimit: number; keyedLimit: number };
  readonly bodyLimitBytes: number;
  readonly trustProxy: boolean;
  /** How long discovery routes serve one snapshot of the venue listing (ms); 0 disables. */
  readonly discoveryCacheMs: number;
  /** How often /mcp re-reads a subscribed opportunity list to notify APY changes (ms). */
  readonly mcpPollMs: number;
  /** The tools /mcp lists: `core` (default) or `full` (SVC_MCP_TOOLSET). */
  readonly mcpToolset: Toolset;
  /** Failed authentications before back-off, and the longest back-off (seconds). */
  readonly authFailures: { freeFailures: number; maxBackoffSeconds: number };
  /** Browser origins allowed to call the API (CORS); none by default. */
  readonly corsOrigins: readonly string[];
  readonly clientVersions: ClientVersionSettings;
  /** Whether /admin/queues may retry, remove and promote jobs (it is read-only by default). */
  readonly queueDashboardWrite: boolean;
  /** The keeper's settings: its queues and state (keeper routes), and the in-process keeper. */
  readonly keeper: KeeperSettings;
}

export { ConfigError };

/** Parses the environment; unknown SVC_* settings and invalid values fail with a clear message. */
export function parseEnv(source: Record<string, string | undefined>): ApiConfig {
  const env = readSettings(EnvSchema, source, {
    inScope: (name) => name.startsWith('SVC_'),
  });
  if (env.NODE_ENV === 'production' && !env.SVC_API_KEY_SECRET) {
    throw new ConfigError('SVC_API_KEY_SECRET (at least 32 characters) is required in production');
  }
  if (compareSemver(env.SVC_API_MIN_SUPPORTED_VERSION, env.SVC_API_LATEST_VERSION) > 0) {
    throw new ConfigError(
      'invalid setting SVC_API_MIN_SUPPORTED_VERSION: above SVC_API_LATEST_VERSION',
    );
  }
  let staticKeys: StaticApiKey[] = [];
  if (env.SVC_API_KEYS) {
    let raw: unknown;
    try {
      raw = JSON.parse(env.SVC_API_KEYS);
    } catch {
      throw new ConfigError('invalid setting SVC_API_KEYS: not valid JSON');
    }
    const keys = z.array(StaticKey).safeParse(raw);
    if (!keys.success) {
      const issue = keys.error.issues[0];
      throw new ConfigError(
        `invalid setting SVC_API_KEYS[${issue?.path.join('.')}]: ${issue?.message}`,
      );
    }
    staticKeys = keys.data.map((entry) => ({ ...entry, characters: entry.characters ?? {} }));
  }
  return {
    ...serviceConfig(env),
    host: env.HOST,
    port: env.PORT,
    dataDir: env.SVC_DATA_DIR,
    apiKeySecret: env.SVC_API_KEY_SECRET ?? DEVELOPMENT_SECRET,
    apiKeyCacheMs: env.SVC_API_KEY_CACHE_MS,
    usesDevSecret: !env.SVC_API_KEY_SECRET,
    staticKeys,
    rateLimit: {
      windowSeconds: env.SVC_RATE_LIMIT_WINDOW_SECONDS,
      publicLimit: env.SVC_RATE_LIMIT_PUBLIC,
      keyedLimit: env.SVC_RATE_LIMIT_KEYED,
    },
    bodyLimitBytes: env.SVC_BODY_LIMIT_BYTES,
    trustProxy: env.SVC_TRUST_PROXY,
    discoveryCacheMs: env.SVC_DISCOVERY_CACHE_MS,
    mcpPollMs: env.SVC_MCP_POLL_MS,
    mcpToolset: env.SVC_MCP_TOOLSET,
    authFailures: {
      freeFailures: env.SVC_AUTH_FREE_FAILURES,
      maxBackoffSeconds: env.SVC_AUTH_BACKOFF_MAX_SECONDS,
    },
    corsOrigins: env.SVC_CORS_ORIGINS,
    clientVersions: {
      latestVersion: env.SVC_API_LATEST_VERSION,
      minSupportedVersion: env.SVC_API_MIN_SUPPORTED_VERSION,
      install: env.SVC_CLIENT_INSTALL ?? null,
      releaseUrl: env.SVC_CLIENT_RELEASE_URL ?? null,
      repoUrl: env.SVC_CLIENT_REPO_URL ?? null,
    },
    queueDashboardWrite: env.SVC_QUEUE_DASHBOARD_WRITE,
    keeper: keeperSettings(env),
  };
}
