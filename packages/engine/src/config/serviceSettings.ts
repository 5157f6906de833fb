import { z } from 'zod';
import {
  EvmAddress,
  MoveCoinType,
  NATIVE_USDC,
  OnChainIds,
  SolanaPubkey,
  SuiObjectId,
} from '@yieldrouter/schemas';
import type { ChainSwitches } from '@yieldrouter/schemas';
import type { ChainsConfig } from '../chains/chainsConfig';
import type { VenueConfig } from '../venues/venueConfig';
import { chainSettingGaps } from './chainSettingGaps';
import { ConfigError } from './configError';
import { BooleanSetting, HttpUrlSetting } from './settingTypes';
import { loadVenueProfile } from './venueProfile';
import { parseVenueSettings } from './venueSettings';
import { WebhookSettingsSchema, parseWebhookSettings } from './webhookSettings';
import type { WebhookSettings } from './webhookSettings';
import { SwapSettingsSchema, parseSwapSettings } from '../swap/swapSettings';
import { JupiterSettingsSchema, parseJupiterSettings } from '../swap/jupiterSettings';
import type { JupiterConfig } from '../swap/jupiterSettings';
import { CetusSettingsSchema, parseCetusSettings } from '../swap/cetusSettings';
import type { CetusConfig } from '../swap/cetusSettings';
import { CctpSettingsSchema, parseCctpSettings } from '../bridge/cctpSettings';
import type { BridgesConfig } from '../bridge/cctpSettings';
import type { SwapsConfig } from '../swap/swapSettings';

const mapChainFlag = z
  .enum(['false', '0'], {
    error: 'Base and Arbitrum are Map chains: execution and broadcast cannot be turned on',
  })
  .optional();

/**
 * The settings every process of the service reads the same way (the API and the keeper): the
 * runtime (database, Redis, logs), chain switches, RPC endpoints, on-chain ids, venues and the
 * APY source. Each app adds its own settings to this shape.
 */
export const ServiceSettings = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    DATABASE_URL: z.string().url().optional(),
    REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
    SVC_DRAIN_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(25_000),
    SVC_IDEMPOTENCY_LOCK_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
    SVC_SUI_EXECUTION_ENABLED: BooleanSetting,
    SVC_SUI_BROADCAST_ENABLED: BooleanSetting,
    SVC_SOLANA_EXECUTION_ENABLED: BooleanSetting,
    SVC_SOLANA_BROADCAST_ENABLED: BooleanSetting,
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
    SVC_BASE_CAGE_ADDRESS: EvmAddress.optional(),
    SVC_ARBITRUM_CAGE_ADDRESS: EvmAddress.optional(),
    SVC_SUI_TREASURY: SuiObjectId.optional(),
    SVC_SOLANA_TREASURY: SolanaPubkey.optional(),
    SVC_BASE_TREASURY: EvmAddress.optional(),
    SVC_ARBITRUM_TREASURY: EvmAddress.optional(),
    SVC_VENUE_IDS: z.string().optional(),
    SVC_PROFILE: z.string().optional(),
    SVC_APY_POOLS: z.string().optional(),
    SVC_APY_BASE_URL: HttpUrlSetting.default('https://yields.llama.fi'),
    SVC_APY_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(4000),
    SVC_APY_MAX_AGE_SECONDS: z.coerce.number().int().min(60).default(21_600),
    SVC_APY_MEAN_MIN_SAMPLES: z.coerce.number().int().min(1).default(3),
    SVC_RPC_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(4000),
    SVC_SUI_RPC_URL: HttpUrlSetting,
    SVC_SUI_NETWORK: z.enum(['mainnet', 'testnet', 'devnet', 'localnet']).default('mainnet'),
    SVC_SOLANA_NETWORK: z
      .enum(['mainnet-beta', 'testnet', 'devnet', 'localnet'])
      .default('mainnet-beta'),
    SVC_SOLANA_RPC_URL: HttpUrlSetting,
    SVC_BASE_RPC_URL: HttpUrlSetting,
    SVC_ARBITRUM_RPC_URL: HttpUrlSetting,
    SVC_SUI_USDC_COIN_TYPE: MoveCoinType.default(NATIVE_USDC.sui),
    SVC_SOLANA_USDC_MINT: SolanaPubkey.default(NATIVE_USDC.solana),
    SVC_BASE_USDC_ADDRESS: EvmAddress.default(NATIVE_USDC.base),
    SVC_ARBITRUM_USDC_ADDRESS: EvmAddress.default(NATIVE_USDC.arbitrum),
  })
  .extend(WebhookSettingsSchema.shape)
  .extend(SwapSettingsSchema.shape)
  .extend(JupiterSettingsSchema.shape)
  .extend(CetusSettingsSchema.shape)
  .extend(CctpSettingsSchema.shape);
export type ServiceSettings = z.infer<typeof ServiceSettings>;

/** What the shared settings configure. */
export interface ServiceConfig {
  readonly nodeEnv: 'development' | 'test' | 'production';
  readonly logLevel: string;
  readonly databaseUrl: string | undefined;
  readonly redisUrl: string;
  /**
   * SIGTERM / SIGINT: how long a process drains (in-flight requests answered, running jobs
   * finished) before it cuts what is left, closes its pools and exits 0.
   */
  readonly drainTimeoutMs: number;
  /** How long an Idempotency-Key claim holds before a retry may run its request again. */
  readonly idempotencyLockMs: number;
  readonly switches: ChainSwitches;
  readonly onChainIds: OnChainIds;
  /** Venue on-chain ids and APY sources. */
  readonly venues: VenueConfig;
  readonly apy: { readonly baseUrl: string | undefined; readonly timeoutMs: number };
  /** RPC endpoints, timeouts and asset ids per chain; an RPC left unset reads as unavailable. */
  readonly chains: ChainsConfig;
  /** Webhook key sealing, target rules, rotation overlap and delivery timeout. */
  readonly webhooks: WebhookSettings;
  /** Swap plans: the 0x quote source, fee recipients and token tables. */
  readonly swaps: SwapsConfig;
  /** Solana swap plans: the Jupiter quote source, the fee recipient and the token table. */
  readonly jupiter: JupiterConfig;
  /** Sui swaps (Cetus): the quote source, fee recipient and token table. */
  readonly cetus: CetusConfig;
  /**
   * The wallet per chain the yield skim is paid to (GET /svc/fees `treasuries`); unset: null. On
   * Solana the router's registry names the treasury it enforces (`set_fee_config`); this setting
   * says which one the operator expects.
   */
  readonly treasuries: Readonly<Record<'sui' | 'solana' | 'base' | 'arbitrum', string | null>>;
  /** Our YieldCage per Map chain; unset answers `cage_not_configured`. */
  readonly cages: { readonly base: string | undefined; readonly arbitrum: string | undefined };
  /** Bridge plans: the CCTP contracts per chain, the attestation service, fee recipients. */
  readonly bridges: BridgesConfig;
}

function onChainIds(env: ServiceSettings): OnChainIds {
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
  return ids.data;
}

/** Builds the shared configuration from parsed settings (ids and venues checked here). */
export function serviceConfig(env: ServiceSettings): ServiceConfig {
  return {
    webhooks: parseWebhookSettings(env),
    bridges: parseCctpSettings(env),
    swaps: parseSwapSettings(env, {
      base: env.SVC_BASE_USDC_ADDRESS,
      arbitrum: env.SVC_ARBITRUM_USDC_ADDRESS,
    }),
    jupiter: parseJupiterSettings(env, env.SVC_SOLANA_USDC_MINT),
    cetus: parseCetusSettings(env, env.SVC_SUI_USDC_COIN_TYPE),
    nodeEnv: env.NODE_ENV,
    logLevel: env.LOG_LEVEL,
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    drainTimeoutMs: env.SVC_DRAIN_TIMEOUT_MS,
    idempotencyLockMs: env.SVC_IDEMPOTENCY_LOCK_MS,
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
    onChainIds: onChainIds(env),
    cages: { base: env.SVC_BASE_CAGE_ADDRESS, arbitrum: env.SVC_ARBITRUM_CAGE_ADDRESS },
    treasuries: {
      sui: env.SVC_SUI_TREASURY ?? null,
      solana: env.SVC_SOLANA_TREASURY ?? null,
      base: env.SVC_BASE_TREASURY ?? null,
      arbitrum: env.SVC_ARBITRUM_TREASURY ?? null,
    },
    venues: {
      ...parseVenueSettings(
        env.SVC_VENUE_IDS,
        env.SVC_APY_POOLS,
        env.SVC_PROFILE === undefined ? {} : loadVenueProfile(env.SVC_PROFILE).ids,
      ),
      apyMaxAgeMs: env.SVC_APY_MAX_AGE_SECONDS * 1000,
      apyMeanMinSamples: env.SVC_APY_MEAN_MIN_SAMPLES,
      chainGaps: chainSettingGaps(env),
    },
    apy: { baseUrl: env.SVC_APY_BASE_URL, timeoutMs: env.SVC_APY_TIMEOUT_MS },
    chains: {
      timeoutMs: env.SVC_RPC_TIMEOUT_MS,
      sui: {
        rpcUrl: env.SVC_SUI_RPC_URL,
        network: env.SVC_SUI_NETWORK,
        usdc: env.SVC_SUI_USDC_COIN_TYPE,
      },
      solana: {
        rpcUrl: env.SVC_SOLANA_RPC_URL,
        network: env.SVC_SOLANA_NETWORK,
        usdc: env.SVC_SOLANA_USDC_MINT,
      },
      base: { rpcUrl: env.SVC_BASE_RPC_URL, usdc: env.SVC_BASE_USDC_ADDRESS },
      arbitrum: { rpcUrl: env.SVC_ARBITRUM_RPC_URL, usdc: env.SVC_ARBITRUM_USDC_ADDRESS },
    },
  };
}
