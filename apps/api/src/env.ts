import { z } from 'zod';
import {
  EvmAddress,
  MoveCoinType,
  NATIVE_USDC,
  OnChainIds,
  SolanaPubkey,
} from '@yieldrouter/schemas';
import type { Role, ChainSwitches } from '@yieldrouter/schemas';
import type { ChainsConfig, VenueConfig } from '@yieldrouter/engine';
import { ConfigError } from './configError';
import { parseVenueSettings } from './venueSettings';
import { parseWebhookSettings } from './webhookSettings';
import type { WebhookSettings } from './webhookSettings';

const bool = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((value) => value === 'true' || value === '1');

const mapChainFlag = z
  .enum(['false', '0'], {
    error: 'Base and Arbitrum are Map chains: execution and broadcast cannot be turned on',
  })
  .optional();

const httpUrl = z
  .string()
  .regex(/^https?:\/\/[^\s]+$/, { error: 'must be an http(s) URL' })
  .optional();

const DEV_SECRET = 'development-only-api-key-secret-change-me';

const StaticKey = z.strictObject({
  key: z.string().min(16),
  role: z.enum(['owner', 'agent', 'keeper']),
  wallets: z.array(z.string().min(1)).default([]),
  characters: z.record(z.string(), z.string()).optional(),
});

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: z.string().url().optional(),
  SVC_DATA_DIR: z.string().default('.data/pglite'),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  SVC_API_KEY_SECRET: z.string().min(32).optional(),
  SVC_API_KEYS: z.string().optional(),
  SVC_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  SVC_RATE_LIMIT_PUBLIC: z.coerce.number().int().min(1).default(600),
  SVC_RATE_LIMIT_KEYED: z.coerce.number().int().min(1).default(1200),
  SVC_BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(10_485_760).default(65_536),
  SVC_TRUST_PROXY: bool,
  SVC_SUI_EXECUTION_ENABLED: bool,
  SVC_SUI_BROADCAST_ENABLED: bool,
  SVC_SOLANA_EXECUTION_ENABLED: bool,
  SVC_SOLANA_BROADCAST_ENABLED: bool,
  SVC_BASE_EXECUTION_ENABLED: mapChainFlag,
  SVC_BASE_BROADCAST_ENABLED: mapChainFlag,
  SVC_ARBITRUM_EXECUTION_ENABLED: mapChainFlag,
  SVC_ARBITRUM_BROADCAST_ENABLED: mapChainFlag,
  SVC_SUI_PACKAGE_ID: z.string().optional(),
  SVC_SUI_UPGRADE_CAP_ID: z.string().optional(),
  SVC_SUI_ADAPTER_REGISTRY_ID: z.string().optional(),
  SVC_SUI_YIELD_ROUTER_ID: z.string().optional(),
  SVC_SUI_PROTOCOL_CONFIG_ID: z.string().optional(),
  SVC_SUI_TESTNET_PACKAGE_ID: z.string().optional(),
  SVC_SOLANA_PROGRAM_ID: z.string().optional(),
  SVC_SOLANA_ADAPTER_REGISTRY: z.string().optional(),
  SVC_SOLANA_YIELD_ROUTER: z.string().optional(),
  SVC_SOLANA_UPGRADE_AUTHORITY: z.string().optional(),
  SVC_BASE_REGISTRY_ADDRESS: z.string().optional(),
  SVC_BASE_DEPLOY_TX: z.string().optional(),
  SVC_ARBITRUM_REGISTRY_ADDRESS: z.string().optional(),
  SVC_ARBITRUM_DEPLOY_TX: z.string().optional(),
  SVC_VENUE_IDS: z.string().optional(),
  SVC_APY_POOLS: z.string().optional(),
  SVC_APY_BASE_URL: httpUrl.default('https://yields.llama.fi'),
  SVC_APY_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(4000),
  SVC_APY_MAX_AGE_SECONDS: z.coerce.number().int().min(60).default(21_600),
  SVC_APY_MEAN_MIN_SAMPLES: z.coerce.number().int().min(1).default(3),
  SVC_DISCOVERY_CACHE_MS: z.coerce.number().int().min(0).max(300_000).default(5000),
  SVC_RPC_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(4000),
  SVC_SUI_RPC_URL: httpUrl,
  SVC_SUI_NETWORK: z.enum(['mainnet', 'testnet', 'devnet', 'localnet']).default('mainnet'),
  SVC_SOLANA_RPC_URL: httpUrl,
  SVC_BASE_RPC_URL: httpUrl,
  SVC_ARBITRUM_RPC_URL: httpUrl,
  SVC_SUI_USDC_COIN_TYPE: MoveCoinType.default(NATIVE_USDC.sui),
  SVC_SOLANA_USDC_MINT: SolanaPubkey.default(NATIVE_USDC.solana),
  SVC_BASE_USDC_ADDRESS: EvmAddress.default(NATIVE_USDC.base),
  SVC_ARBITRUM_USDC_ADDRESS: EvmAddress.default(NATIVE_USDC.arbitrum),
  SVC_WEBHOOK_KEY_SECRET: z.string().min(32).optional(),
  SVC_WEBHOOK_ALLOW_PRIVATE_URLS: bool,
  SVC_WEBHOOK_ROTATION_OVERLAP_SECONDS: z.coerce.number().int().min(0).max(604_800).default(86_400),
  SVC_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(1000).max(30_000).default(10_000),
});

export interface StaticApiKey {
  readonly key: string;
  readonly role: Role;
  readonly wallets: readonly string[];
  readonly characters: Readonly<Record<string, string>>;
}

export interface ApiConfig {
  readonly nodeEnv: 'development' | 'test' | 'production';
  readonly host: string;
  readonly port: number;
  readonly logLevel: string;
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly redisUrl: string;
  readonly apiKeySecret: string;
  readonly usesDevSecret: boolean;
  readonly staticKeys: readonly StaticApiKey[];
  readonly rateLimit: { windowSeconds: number; publicLimit: number; keyedLimit: number };
  readonly bodyLimitBytes: number;
  readonly trustProxy: boolean;
  readonly switches: ChainSwitches;
  readonly onChainIds: OnChainIds;
  /** Venue on-chain ids and APY sources. */
  readonly venues: VenueConfig;
  readonly apy: { readonly baseUrl: string | undefined; readonly timeoutMs: number };
  /** How long discovery routes serve one snapshot of the venue listing (ms); 0 disables. */
  readonly discoveryCacheMs: number;
  /** RPC endpoints, timeouts and asset ids per chain; an RPC left unset reads as unavailable. */
  readonly chains: ChainsConfig;
  readonly webhooks: WebhookSettings;
}

export { ConfigError };

const KNOWN_KEYS = new Set(Object.keys(EnvSchema.shape));

/** Parses the environment; unknown SVC_* settings and invalid values fail with a clear message. */
export function parseEnv(rawSource: Record<string, string | undefined>): ApiConfig {
  // An empty variable means unset (shells and .env files write `NAME=` for "nothing").
  const source = Object.fromEntries(
    Object.entries(rawSource).filter(([, value]) => value !== undefined && value !== ''),
  );
  const unknown = Object.keys(source).filter(
    (name) => name.startsWith('SVC_') && !KNOWN_KEYS.has(name),
  );
  if (unknown.length > 0) throw new ConfigError(`unknown setting(s): ${unknown.join(', ')}`);
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`invalid setting ${issue?.path.join('.')}: ${issue?.message}`);
  }
  const env = parsed.data;
  if (env.NODE_ENV === 'production' && !env.SVC_API_KEY_SECRET) {
    throw new ConfigError('SVC_API_KEY_SECRET (at least 32 characters) is required in production');
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
  const ids = OnChainIds.safeParse({
    sui: {
      packageId: env.SVC_SUI_PACKAGE_ID,
      upgradeCapId: env.SVC_SUI_UPGRADE_CAP_ID,
      adapterRegistryId: env.SVC_SUI_ADAPTER_REGISTRY_ID,
      yieldRouterId: env.SVC_SUI_YIELD_ROUTER_ID,
      protocolConfigId: env.SVC_SUI_PROTOCOL_CONFIG_ID,
      testnetPackageId: env.SVC_SUI_TESTNET_PACKAGE_ID,
    },
    solana: {
      programId: env.SVC_SOLANA_PROGRAM_ID,
      adapterRegistry: env.SVC_SOLANA_ADAPTER_REGISTRY,
      yieldRouter: env.SVC_SOLANA_YIELD_ROUTER,
      upgradeAuthority: env.SVC_SOLANA_UPGRADE_AUTHORITY,
    },
    base: { registryAddress: env.SVC_BASE_REGISTRY_ADDRESS, deployTx: env.SVC_BASE_DEPLOY_TX },
    arbitrum: {
      registryAddress: env.SVC_ARBITRUM_REGISTRY_ADDRESS,
      deployTx: env.SVC_ARBITRUM_DEPLOY_TX,
    },
  });
  if (!ids.success) {
    const issue = ids.error.issues[0];
    throw new ConfigError(`invalid on-chain id ${issue?.path.join('.')}: ${issue?.message}`);
  }
  return {
    nodeEnv: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    logLevel: env.LOG_LEVEL,
    databaseUrl: env.DATABASE_URL,
    dataDir: env.SVC_DATA_DIR,
    redisUrl: env.REDIS_URL,
    apiKeySecret: env.SVC_API_KEY_SECRET ?? DEV_SECRET,
    usesDevSecret: !env.SVC_API_KEY_SECRET,
    staticKeys,
    rateLimit: {
      windowSeconds: env.SVC_RATE_LIMIT_WINDOW_SECONDS,
      publicLimit: env.SVC_RATE_LIMIT_PUBLIC,
      keyedLimit: env.SVC_RATE_LIMIT_KEYED,
    },
    bodyLimitBytes: env.SVC_BODY_LIMIT_BYTES,
    trustProxy: env.SVC_TRUST_PROXY,
    switches: {
      sui: {
        executionEnabled: env.SVC_SUI_EXECUTION_ENABLED,
        broadcastEnabled: env.SVC_SUI_BROADCAST_ENABLED,
      },
      solana: {
        executionEnabled: env.SVC_SOLANA_EXECUTION_ENABLED,
        broadcastEnabled: env.SVC_SOLANA_BROADCAST_ENABLED,
      },
      base: { executionEnabled: false, broadcastEnabled: false },
      arbitrum: { executionEnabled: false, broadcastEnabled: false },
    },
    onChainIds: ids.data,
    venues: {
      ...parseVenueSettings(env.SVC_VENUE_IDS, env.SVC_APY_POOLS),
      apyMaxAgeMs: env.SVC_APY_MAX_AGE_SECONDS * 1000,
      apyMeanMinSamples: env.SVC_APY_MEAN_MIN_SAMPLES,
    },
    apy: { baseUrl: env.SVC_APY_BASE_URL, timeoutMs: env.SVC_APY_TIMEOUT_MS },
    discoveryCacheMs: env.SVC_DISCOVERY_CACHE_MS,
    chains: {
      timeoutMs: env.SVC_RPC_TIMEOUT_MS,
      sui: {
        rpcUrl: env.SVC_SUI_RPC_URL,
        network: env.SVC_SUI_NETWORK,
        usdc: env.SVC_SUI_USDC_COIN_TYPE,
      },
      solana: { rpcUrl: env.SVC_SOLANA_RPC_URL, usdc: env.SVC_SOLANA_USDC_MINT },
      base: { rpcUrl: env.SVC_BASE_RPC_URL, usdc: env.SVC_BASE_USDC_ADDRESS },
      arbitrum: { rpcUrl: env.SVC_ARBITRUM_RPC_URL, usdc: env.SVC_ARBITRUM_USDC_ADDRESS },
    },
    webhooks: parseWebhookSettings({ ...env, apiKeySecret: env.SVC_API_KEY_SECRET ?? DEV_SECRET }),
  };
}
