import { z } from 'zod';
import { Chain, ExecutionMode } from './chains';
import { BlockerCode, CODE_RULE, ErrorCode } from './errors';
import { ClientVersionFields } from './clientVersions';
import { READINESS_DESCRIPTIONS as R } from './readinessFields';

export const API_VERSION = '1.0.0';

export const HealthDocument = z.object({
  status: z.enum(['ok', 'degraded']),
  apiVersion: z.string(),
  uptimeSeconds: z.number().int(),
  checks: z.object({
    database: z.enum(['up', 'down']),
    redis: z.enum(['up', 'down', 'not_configured']),
  }),
});
export type HealthDocument = z.infer<typeof HealthDocument>;

export const RootDocument = z.object({
  name: z.string(),
  apiVersion: z.string(),
  links: z.object({
    docs: z.string(),
    openapi: z.string(),
    health: z.string(),
    status: z.string(),
    routes: z.string(),
  }),
});
export type RootDocument = z.infer<typeof RootDocument>;

export const ChainHome = z.enum(['executable', 'map']);

export const ChainEnablement = z.object({
  chain: Chain,
  home: ChainHome,
  label: z.enum(['Executable', 'Map']),
  executionEnabled: z.boolean(),
  broadcastEnabled: z.boolean(),
  writeReady: z.boolean().meta({ description: R.chainWriteReady }),
  liveMoneyPath: z.boolean(),
  executionMode: ExecutionMode,
  reasons: z.array(z.string()).meta({ description: 'Why a switch is off, in plain words.' }),
});
export type ChainEnablement = z.infer<typeof ChainEnablement>;

export const EnablementDocument = z.object({
  schemaVersion: z.literal('svc-enablement.v1'),
  chains: z.array(ChainEnablement),
});
export type EnablementDocument = z.infer<typeof EnablementDocument>;

export const StatusDocument = z.object({
  schemaVersion: z.literal('svc-status.v1'),
  apiVersion: z.string(),
  phase: z.literal('phase-1'),
  launchHomes: z.object({
    executable: z.array(Chain),
    map: z.array(Chain),
  }),
  protocolYieldSkimBps: z.number().int(),
  principalFeeBps: z.number().int(),
  depositFeeBps: z.number().int(),
  withdrawFeeBps: z.number().int(),
  harvestProfitFeeBps: z.number().int(),
  harvestProfitFeeEnabled: z.boolean(),
  executionEnabled: z.boolean().meta({ description: 'True when any chain has execution on.' }),
  broadcastEnabled: z.boolean().meta({ description: 'True when any chain may broadcast.' }),
  executionMode: ExecutionMode.meta({ description: 'The most permissive mode of any chain.' }),
  chains: z.array(ChainEnablement),
  venueIds: z.array(z.string()),
});
export type StatusDocument = z.infer<typeof StatusDocument>;

const OnChainObject = z.object({
  kind: z.string(),
  id: z.string().nullable(),
  reason: z.string().optional().meta({ description: 'Why id is null.' }),
});

export const ChainPackage = z.object({
  chain: Chain,
  label: z.enum(['Executable', 'Map']),
  network: z.string(),
  chainId: z.number().int().optional(),
  role: z.enum(['execution_home', 'expansion_discovery']),
  targetRole: z.enum(['execution_home', 'expansion_discovery']),
  status: z.enum(['live', 'target']).meta({
    description:
      'live: the package/program/registry is deployed (configured). It does not mean write-ready.',
  }),
  writeReady: z.boolean().meta({ description: R.chainWriteReady }),
  liveMoneyPath: z.boolean(),
  broadcastEnabled: z.boolean(),
  objects: z.array(OnChainObject),
  assets: z
    .array(z.object({ asset: z.string(), id: z.string(), decimals: z.number().int() }))
    .meta({ description: 'Asset ids the adapters read and build with (configuration).' }),
  rpc: z
    .object({ configured: z.boolean(), timeoutMs: z.number().int() })
    .meta({ description: 'Whether an RPC endpoint is configured (its URL is never shown).' }),
  modules: z.array(z.string()).optional(),
  upgradeAuthority: z
    .object({ held: z.boolean(), burned: z.boolean(), note: z.string() })
    .optional(),
  expansion: z
    .object({
      goNoGo: z.enum(['NO_GO_EXPANSION', 'GO']),
      targetGoNoGo: z.enum(['NO_GO_EXPANSION', 'GO']),
      executionEnabled: z.boolean(),
      targetExecutionEnabled: z.boolean(),
      writeAdapters: z.enum(['stub', 'live']),
      targetWriteAdapters: z.enum(['stub', 'live']),
    })
    .optional(),
  registryFeeConfig: z
    .object({ yieldSkimBps: z.number(), depositFeeBps: z.number(), maxYieldSkimBps: z.number() })
    .optional(),
});

export const PackagesDocument = z.object({
  schemaVersion: z.literal('svc-packages.v1'),
  chains: z.array(ChainPackage),
});
export type PackagesDocument = z.infer<typeof PackagesDocument>;

export const VersionDocument = z.object({
  apiVersion: z.string(),
  openapiVersion: z.literal('3.1.0'),
  basePath: z.literal('/api/v1'),
  legacyPrefixes: z.array(z.string()),
  routeCount: z.number().int(),
  errorCatalogVersion: z.string(),
  schemas: z.array(z.string()),
  deprecations: z.array(z.object({ input: z.string(), replacement: z.string(), note: z.string() })),
  ...ClientVersionFields,
});
export type VersionDocument = z.infer<typeof VersionDocument>;

export const SdkDocument = z.object({
  packageName: z.string(),
  published: z.boolean(),
  version: z.string().nullable(),
  apiVersion: z.string(),
  reason: z.string().optional(),
  ...ClientVersionFields,
});
export type SdkDocument = z.infer<typeof SdkDocument>;

export const ErrorsDocument = z
  .object({
    version: z.string(),
    description: z
      .string()
      .meta({ description: 'The rule that tells error codes from blocker codes.' }),
    errors: z.array(z.object({ code: ErrorCode, status: z.number().int(), meaning: z.string() })),
    blockers: z.array(z.object({ code: BlockerCode, meaning: z.string() })),
    notes: z.array(z.string()),
  })
  .meta({ description: CODE_RULE });
export type ErrorsDocument = z.infer<typeof ErrorsDocument>;

export const RouteCatalogEntry = z.object({
  operationId: z.string(),
  method: z.string(),
  path: z.string(),
  legacyAliases: z.array(z.string()),
  auth: z.array(z.string()),
  summary: z.string(),
  tags: z.array(z.string()),
  implemented: z.boolean(),
});

export const RoutesDocument = z.object({
  apiVersion: z.string(),
  count: z.number().int(),
  implementedCount: z.number().int(),
  routes: z.array(RouteCatalogEntry),
});
export type RoutesDocument = z.infer<typeof RoutesDocument>;

const FeeLine = z.object({ bps: z.number().int() });

export const FeesDocument = z.object({
  schemaVersion: z.literal('svc-fees.v1'),
  version: z.string(),
  unit: z.literal('bps'),
  amountFormat: z.string(),
  principalFeeBps: z.number().int(),
  depositFeeBps: z.number().int(),
  withdrawFeeBps: z.number().int(),
  yieldSkimBps: z.number().int(),
  registryMaxYieldSkimBps: z.number().int(),
  harvestProfitFee: FeeLine.extend({ capMicros: z.string(), enabled: z.boolean() }),
  swapFeeBps: z.number().int(),
  bridgeFeeBps: z.number().int(),
  gasSponsorFeeBps: z.number().int().meta({
    description: "The gas-sponsor plan's service fee, in bps of the USDC its top-up swap sells.",
  }),
  slippage: z.object({ defaultBps: z.number().int(), maxBps: z.number().int() }),
  treasuries: z
    .object({
      sui: z.string().nullable(),
      solana: z.string().nullable(),
      base: z.string().nullable(),
      arbitrum: z.string().nullable(),
    })
    .meta({
      description:
        'The wallet per chain the yield skim is paid to on chain (null: not configured). On Solana the router pays it in withdraw_from_venue to the treasury its registry names.',
    }),
});
export type FeesDocument = z.infer<typeof FeesDocument>;
