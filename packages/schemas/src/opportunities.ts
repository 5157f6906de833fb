import { z } from 'zod';
import { AUTOPILOT_STRATEGY_ID, AutopilotChain } from './autopilot';
import { Chain, ExecutionMode } from './chains';
import { MicrosOut } from './money';
import {
  ApyProvenance,
  OpportunityCaps,
  OpportunityRisk,
  OpportunityTokens,
  OpportunityTvl,
} from './opportunityFacts';
import { BlockerCode } from './errors';
import { READINESS_DESCRIPTIONS as R } from './readinessFields';

const Bps = z.number().int();

const FORM_PREFIX = 'form-';

/**
 * The bare venue id of a legacy `form-<venue_id>` alias; other ids come back unchanged.
 *
 * @example
 * normalizeOpportunityId('form-navi-usdc') // 'navi-usdc'
 * normalizeOpportunityId('navi-usdc') // 'navi-usdc'
 */
export function normalizeOpportunityId(id: string): string {
  return id.startsWith(FORM_PREFIX) ? id.slice(FORM_PREFIX.length) : id;
}

/** Where a venue stands in our catalog: vetted (`ready`), listed, or planned. */
export const VenueReadiness = z.enum(['ready', 'listed', 'planned']);
export type VenueReadiness = z.infer<typeof VenueReadiness>;

/** The catalog status under its own name (`readiness` is its deprecated name). */
export const VenueCatalogStatus = z.enum(['vetted', 'listed', 'planned']);
export type VenueCatalogStatus = z.infer<typeof VenueCatalogStatus>;

/** `readiness` (deprecated) → `catalogStatus`: one value each, `ready` is `vetted`. */
export const catalogStatusOf = (readiness: VenueReadiness): VenueCatalogStatus =>
  readiness === 'ready' ? 'vetted' : readiness;

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
  standard: z.enum(['erc4626', 'aave-v3', 'router-adapter']),
  ready: z.boolean().meta({ description: R.ready }),
  catalogStatus: VenueCatalogStatus.meta({ description: R.catalogStatus }),
  readiness: VenueReadiness.meta({ description: R.readiness, deprecated: true }),
  missingIds: z.array(z.string()).meta({ description: 'Configuration the venue still needs.' }),
  missingSettings: z.array(z.string()).meta({ description: R.missingSettings }),
  depositBlocker: BlockerCode.nullable().meta({ description: R.depositBlocker }),
  depositBlockedReason: z.string().nullable().meta({ description: R.depositBlockedReason }),
  notReadyReason: z.string().nullable().meta({
    description:
      'Why `ready` is false, naming the setting that would make it true (`SVC_VENUE_IDS.<venueId>.<idName>`, or `SVC_PROFILE`); null when ready.',
  }),
  writeReady: z.boolean().meta({ description: R.venueWriteReady }),
  executionMode: ExecutionMode,
  grossApyBps: Bps.nullable(),
  gross_apy_bps: Bps.nullable().meta({ description: 'Same as grossApyBps (legacy name).' }),
  apy: ApyProvenance,
  apyMean30dBps: Bps.nullable().meta({ description: 'Mean of stored samples; null if too few.' }),
  apyMean30dSamples: z.number().int(),
  tvlUsdMicros: MicrosOut.nullable(),
  tvl: OpportunityTvl,
  caps: OpportunityCaps,
  timeLockSeconds: z
    .number()
    .int()
    .nullable()
    .meta({ description: 'Wait between a withdrawal request and the money; null when unknown.' }),
  timeLockReason: z.string().nullable().meta({ description: 'Why timeLockSeconds is null.' }),
  depositable: z.boolean().meta({ description: R.depositable }),
  redeemable: z.boolean().meta({ description: R.redeemable }),
  tokens: OpportunityTokens,
  risk: OpportunityRisk,
  wave: z.number().int(),
  priority: z.number().int(),
  actions: z.array(z.string()),
  minDepositMicros: MicrosOut,
});
export type Opportunity = z.infer<typeof Opportunity>;

export const OpportunityList = z.object({
  schemaVersion: z.literal('svc-opportunities.v1'),
  count: z.number().int().meta({ description: 'Opportunities on this page.' }),
  total: z.number().int().meta({ description: 'Opportunities matching the filters, all pages.' }),
  nextCursor: z
    .string()
    .nullable()
    .meta({ description: 'Pass as cursor for the next page; null on the last page.' }),
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
  strategyId: z.literal(AUTOPILOT_STRATEGY_ID),
  kind: z.literal('autopilot'),
  description: z.string(),
  rerank: z.literal('monthly'),
  metric: z.literal('apyMean30dBps'),
  switchThresholdBps: z.number().int(),
  minSamples: z.number().int().meta({ description: 'Samples a 30-day mean needs to rank.' }),
  chains: z.array(AutopilotChain).meta({ description: 'The autopilot stays within one of these.' }),
  candidates: z.array(z.string()).meta({
    description: 'Venue ids of the ready opportunities on the autopilot chains.',
  }),
  currentLeader: z.string().nullable().meta({
    description: 'The venue with the best ranking 30-day mean over both chains (null: none).',
  }),
  leaders: z.array(
    z.object({
      chain: AutopilotChain,
      opportunityId: z.string().nullable(),
      venueId: z.string().nullable(),
      apyMean30dBps: Bps.nullable(),
    }),
  ),
});

export const StrategyList = z.object({
  schemaVersion: z.literal('svc-strategies.v1'),
  count: z.number().int(),
  strategies: z.array(z.union([Opportunity, AutopilotStrategy])).meta({
    description:
      'The venues (opportunities) that match the filters, then the autopilot strategy (`kind: ' +
      'autopilot`) unless a filter leaves it out (a chain it does not run on, `ready=0`, a ' +
      'status other than ready, a wave).',
  }),
  featured: AutopilotStrategy.meta({ description: 'The autopilot strategy, also in the list.' }),
});
export type StrategyList = z.infer<typeof StrategyList>;

/** The venues of a strategy list (every entry but the autopilot strategy). */
export function venueStrategies(list: StrategyList): Opportunity[] {
  return list.strategies.filter((entry): entry is Opportunity => !('kind' in entry));
}

export const ApyRefreshResult = z.object({
  refreshedAt: z.string(),
  source: z.string(),
  venues: z.number().int(),
  ok: z.number().int(),
  unavailable: z.number().int(),
  apyUpdatedEvents: z
    .number()
    .int()
    .meta({ description: 'Venues whose APY changed: one apy.updated outbox event each.' }),
  sourceError: z
    .string()
    .nullable()
    .meta({
      description:
        'Why the whole source read failed (every venue then stored as unavailable); null when ' +
        'the source answered.',
    }),
});

export const FormList = z.object({
  schemaVersion: z.literal('svc-forms.v1'),
  deprecated: z.literal(true),
  count: z.number().int(),
  forms: z.array(Opportunity),
});

/** A table row of the home document: what a listing shows, without internal fields. */
export const HomeOpportunityRow = z.object({
  opportunityId: z.string(),
  venueId: z.string(),
  protocol: z.string(),
  chain: Chain,
  asset: z.string(),
  grossApyBps: Bps.nullable(),
  apyMean30dBps: Bps.nullable(),
  apyReason: z
    .string()
    .nullable()
    .meta({ description: 'Why grossApyBps is null; null when there is a value.' }),
  tvlUsdMicros: MicrosOut.nullable(),
  ready: z.boolean().meta({ description: R.ready }),
  depositable: z.boolean().meta({ description: R.depositable }),
  depositBlockedReason: z.string().nullable().meta({ description: R.depositBlockedReason }),
  writeReady: z.boolean().meta({ description: R.venueWriteReady }),
  executionMode: ExecutionMode,
  minDepositMicros: MicrosOut,
});
export type HomeOpportunityRow = z.infer<typeof HomeOpportunityRow>;

export const HomeDocument = z
  .object({
    schemaVersion: z.literal('svc-home.v1'),
    asOf: z.string().meta({ description: 'The listing has been unchanged since this time.' }),
    opportunities: z.array(HomeOpportunityRow).meta({
      description:
        'Vetted venues (readiness ready), best live APY first (unknown APY last), then 30-day mean, then priority.',
    }),
    protocols: z.array(
      z.object({
        protocol: z.string(),
        chains: z.array(Chain),
        venues: z.number().int(),
        bestApyBps: Bps.nullable(),
        tvlUsdMicros: MicrosOut.nullable().meta({
          description: 'Sum over its venues; null unless every venue TVL is known.',
        }),
      }),
    ),
    markets: z.array(
      z.object({
        chain: Chain,
        home: z.enum(['executable', 'map']),
        asset: z.string(),
        venues: z.number().int(),
        readyVenues: z.number().int(),
        bestApyBps: Bps.nullable(),
        bestOpportunityId: z.string().nullable(),
      }),
    ),
  })
  .meta({ description: 'One call for a home screen: filtered, sorted, trimmed to table content.' });
export type HomeDocument = z.infer<typeof HomeDocument>;

export const DiscoverSort = z.enum(['apy_desc', 'apy_asc', 'tvl_desc', 'priority']);
export type DiscoverSort = z.infer<typeof DiscoverSort>;

export const DiscoverDocument = z
  .object({
    schemaVersion: z.literal('svc-discover.v1'),
    asOf: z.string(),
    note: z.string(),
    filters: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).meta({
      description: 'The filters applied, with defaults filled in (sort, limit).',
    }),
    total: z.number().int().meta({ description: 'Matches before the limit.' }),
    count: z.number().int(),
    opportunities: z.array(Opportunity),
  })
  .meta({ description: 'Market map; not execution truth: prepare a plan before signing.' });
export type DiscoverDocument = z.infer<typeof DiscoverDocument>;

export const DiscoverMapDocument = z
  .object({
    schemaVersion: z.literal('svc-discover-map.v1'),
    asOf: z.string(),
    note: z.string(),
    chains: z.array(
      z.object({
        chain: Chain,
        label: z.enum(['Executable', 'Map']),
        writeReady: z.boolean().meta({ description: R.chainWriteReady }),
        executionMode: ExecutionMode,
        venues: z.number().int(),
        readyVenues: z.number().int(),
        protocols: z.array(z.string()),
        bestApyBps: Bps.nullable(),
        opportunities: z.array(HomeOpportunityRow),
      }),
    ),
  })
  .meta({ description: 'Every venue grouped by chain, with each chain home label.' });
export type DiscoverMapDocument = z.infer<typeof DiscoverMapDocument>;

export const EstimatesDocument = z
  .object({
    schemaVersion: z.literal('svc-estimates.v1'),
    asOf: z.string(),
    amountMicros: MicrosOut,
    days: z.number().int(),
    apyBasis: z.enum(['live', 'mean30d']),
    method: z.string(),
    yieldSkimBps: z.number().int(),
    estimates: z.array(
      z.object({
        opportunityId: z.string(),
        venueId: z.string(),
        chain: Chain,
        protocol: z.string(),
        apyBps: Bps.nullable(),
        grossYieldMicros: MicrosOut.nullable(),
        yieldSkimMicros: MicrosOut.nullable(),
        netYieldMicros: MicrosOut.nullable(),
        reason: z.string().nullable().meta({ description: 'Why the estimate is null.' }),
      }),
    ),
  })
  .meta({ description: 'Projected yield, net of the yield skim; null wherever APY is null.' });
export type EstimatesDocument = z.infer<typeof EstimatesDocument>;
