import { z } from 'zod';
import { Chain, ExecutionMode } from './chains';
import { MicrosOut } from './money';

const Bps = z.number().int();

/** Provenance of an APY value. A null value always carries a reason; it is never 0 or a guess. */
export const ApyProvenance = z.object({
  source: z.string().nullable().meta({ description: 'e.g. defillama; null before any read.' }),
  asOf: z.string().nullable().meta({ description: 'When the value was read (ISO 8601).' }),
  stale: z.boolean(),
  baseBps: Bps.nullable(),
  rewardBps: Bps.nullable(),
  reason: z
    .string()
    .nullable()
    .meta({ description: 'Why grossApyBps is null (source_not_configured, stale, …).' }),
});

export const Opportunity = z.object({
  opportunityId: z
    .string()
    .regex(/^svcop[0-9a-f]+$/)
    .meta({ description: 'Permanent handle. Read it from a response; never construct it.' }),
  strategyId: z.string().meta({ description: 'Bare venue id (deprecated alias input).' }),
  venueId: z.string(),
  formId: z.string().meta({ description: 'Legacy alias: form-<venue_id>.' }),
  protocol: z.string(),
  chain: Chain,
  asset: z.string(),
  ready: z.boolean().meta({ description: 'Vetted and every on-chain id it needs configured.' }),
  readiness: z.enum(['ready', 'listed', 'planned']),
  missingIds: z.array(z.string()).meta({ description: 'Configuration the venue still needs.' }),
  writeReady: z.boolean(),
  executionMode: ExecutionMode,
  grossApyBps: Bps.nullable(),
  gross_apy_bps: Bps.nullable().meta({ description: 'Same as grossApyBps (legacy name).' }),
  apy: ApyProvenance,
  apyMean30dBps: Bps.nullable().meta({ description: 'Mean of stored samples; null if too few.' }),
  apyMean30dSamples: z.number().int(),
  tvlUsdMicros: MicrosOut.nullable(),
  wave: z.number().int(),
  priority: z.number().int(),
  actions: z.array(z.string()),
  minDepositMicros: MicrosOut,
});
export type Opportunity = z.infer<typeof Opportunity>;

export const OpportunityList = z.object({
  schemaVersion: z.literal('svc-opportunities.v1'),
  count: z.number().int(),
  asOf: z.string(),
  opportunities: z.array(Opportunity),
});
export type OpportunityList = z.infer<typeof OpportunityList>;

export const VenueList = z.object({
  schemaVersion: z.literal('svc-venues.v1'),
  count: z.number().int(),
  asOf: z.string(),
  live: z.boolean().meta({ description: 'True when APY was read from the source for this call.' }),
  venues: z.array(Opportunity),
});
export type VenueList = z.infer<typeof VenueList>;

export const VenueApyTable = z.object({
  schemaVersion: z.literal('svc-venue-apy.v1'),
  status: z.enum(['ok', 'partial', 'unavailable']),
  asOf: z.string(),
  venues: z.array(
    z.object({
      venueId: z.string(),
      opportunityId: z.string(),
      chain: Chain,
      grossApyBps: Bps.nullable(),
      gross_apy_bps: Bps.nullable(),
      apyMean30dBps: Bps.nullable(),
      apyMean30dSamples: z.number().int(),
      apy: ApyProvenance,
    }),
  ),
});
export type VenueApyTable = z.infer<typeof VenueApyTable>;

/** The featured autopilot strategy (listed with the venues under /svc/strategies). */
export const AutopilotStrategy = z.object({
  strategyId: z.literal('svc-autopilot-top-30d-monthly'),
  kind: z.literal('autopilot'),
  description: z.string(),
  rerank: z.literal('monthly'),
  metric: z.literal('apyMean30dBps'),
  switchThresholdBps: z.number().int(),
  candidates: z.array(z.string()),
  currentLeader: z.string().nullable(),
});

export const StrategyList = z.object({
  schemaVersion: z.literal('svc-strategies.v1'),
  count: z.number().int(),
  strategies: z.array(Opportunity),
  featured: AutopilotStrategy,
});

export const ApyRefreshResult = z.object({
  refreshedAt: z.string(),
  source: z.string(),
  venues: z.number().int(),
  ok: z.number().int(),
  unavailable: z.number().int(),
});

export const FormList = z.object({
  schemaVersion: z.literal('svc-forms.v1'),
  deprecated: z.literal(true),
  count: z.number().int(),
  forms: z.array(Opportunity),
});
