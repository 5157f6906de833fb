import { FeeError, defaultFeeSchedule, projectYield } from '@yieldrouter/fees';
import type {
  ChainEnablement,
  DiscoverDocument,
  DiscoverMapDocument,
  DiscoverRequest,
  DiscoverSort,
  EstimatesDocument,
  HomeDocument,
  HomeOpportunityRow,
  Opportunity,
} from '@yieldrouter/schemas';
import { Chain as ChainSchema, formatMicros, isMapChain } from '@yieldrouter/schemas';
import { EngineError } from '../errors';
import { findOpportunity } from './listOpportunities';
import { filterOpportunities } from './filterOpportunities';
import { byApyDesc, byPriority, opportunityComparator, tvlOf } from './rankOpportunities';
import type { OpportunitySnapshot } from './opportunitySnapshots';

const DISCOVER_NOTE =
  'Market map, not execution truth: readiness and APY come from configuration and the last ' +
  'read; prepare a plan (POST /api/v1/svc/strategies/deposit/plan) before anything is signed.';
const DEFAULT_DISCOVER_LIMIT = 50;

const CHAINS = ChainSchema.options;

const descNullsLast = (a: number | null, b: number | null) =>
  a === null ? (b === null ? 0 : 1) : b === null ? -1 : b - a;

const COMPARATORS: Record<DiscoverSort, (a: Opportunity, b: Opportunity) => number> = {
  apy_desc: byApyDesc,
  apy_asc: opportunityComparator('apy', 'asc'),
  tvl_desc: opportunityComparator('tvl', 'desc'),
  priority: byPriority,
};

/** The trimmed row of a listing: no provenance object, no legacy APY alias. */
export function toHomeRow(entry: Opportunity): HomeOpportunityRow {
  return {
    opportunityId: entry.opportunityId,
    venueId: entry.venueId,
    protocol: entry.protocol,
    chain: entry.chain,
    asset: entry.asset,
    grossApyBps: entry.grossApyBps,
    apyMean30dBps: entry.apyMean30dBps,
    apyReason: entry.grossApyBps === null ? entry.apy.reason : null,
    tvlUsdMicros: entry.tvlUsdMicros,
    ready: entry.ready,
    depositable: entry.depositable,
    depositBlockedReason: entry.depositBlockedReason,
    writeReady: entry.writeReady,
    executionMode: entry.executionMode,
    minDepositMicros: entry.minDepositMicros,
  };
}

/** Best live APY first, then 30-day mean, then catalog order. */
const rank = (entries: readonly Opportunity[]) => [...entries].sort(COMPARATORS.apy_desc);

/**
 * The home document: vetted venues best APY first, then one row per protocol and per market
 * (chain × asset). A protocol TVL is a sum only when every one of its venue TVLs is known.
 */
export function buildHomeDocument(snapshot: OpportunitySnapshot): HomeDocument {
  const vetted = snapshot.opportunities.filter((entry) => entry.readiness === 'ready');
  const protocols = [...new Set(vetted.map((entry) => entry.protocol))].map((protocol) => {
    const venues = vetted.filter((entry) => entry.protocol === protocol);
    const tvls = venues.map(tvlOf);
    return {
      protocol,
      chains: CHAINS.filter((chain) => venues.some((entry) => entry.chain === chain)),
      venues: venues.length,
      bestApyBps: rank(venues)[0]?.grossApyBps ?? null,
      tvlUsdMicros: tvls.every((tvl) => tvl !== null)
        ? formatMicros(tvls.reduce<bigint>((sum, tvl) => sum + (tvl ?? 0n), 0n))
        : null,
    };
  });
  const markets = CHAINS.flatMap((chain) => {
    const onChain = snapshot.opportunities.filter((entry) => entry.chain === chain);
    return [...new Set(onChain.map((entry) => entry.asset))].map((asset) => {
      const venues = onChain.filter((entry) => entry.asset === asset);
      const best = rank(venues)[0];
      return {
        chain,
        home: isMapChain(chain) ? ('map' as const) : ('executable' as const),
        asset,
        venues: venues.length,
        readyVenues: venues.filter((entry) => entry.ready).length,
        bestApyBps: best?.grossApyBps ?? null,
        bestOpportunityId: best?.grossApyBps !== null ? (best?.opportunityId ?? null) : null,
      };
    });
  });
  return {
    schemaVersion: 'svc-home.v1',
    asOf: snapshot.asOf,
    opportunities: rank(vetted).map(toHomeRow),
    protocols: protocols.sort(
      (a, b) => descNullsLast(a.bestApyBps, b.bestApyBps) || a.protocol.localeCompare(b.protocol),
    ),
    markets,
  };
}

/**
 * Discovery with filters (all optional): chain, protocol (name or venue id), asset (catalog
 * values, case-blind; an unknown value is a 400 naming the field), minApyBps / minTvlUsd
 * (venues whose value is unknown never pass a minimum), ready; sorted (default apy_desc) and
 * limited (default 50).
 */
export function discoverOpportunities(
  snapshot: OpportunitySnapshot,
  request: DiscoverRequest = {},
): DiscoverDocument {
  const { matching, protocol, asset } = filterOpportunities(
    snapshot.opportunities,
    request,
    'body',
  );
  const sort = request.sort ?? 'apy_desc';
  const limit = request.limit ?? DEFAULT_DISCOVER_LIMIT;
  const filters: DiscoverDocument['filters'] = { sort, limit };
  for (const [name, value] of Object.entries({ ...request, protocol, asset })) {
    if (value !== undefined && name !== 'sort' && name !== 'limit') filters[name] = value;
  }
  const opportunities = [...matching].sort(COMPARATORS[sort]).slice(0, limit);
  return {
    schemaVersion: 'svc-discover.v1',
    asOf: snapshot.asOf,
    note: DISCOVER_NOTE,
    filters,
    total: matching.length,
    count: opportunities.length,
    opportunities,
  };
}

/** Every venue grouped by chain, with the chain's home label and execution state. */
export function buildDiscoverMap(
  snapshot: OpportunitySnapshot,
  enablement: readonly ChainEnablement[],
): DiscoverMapDocument {
  return {
    schemaVersion: 'svc-discover-map.v1',
    asOf: snapshot.asOf,
    note: DISCOVER_NOTE,
    chains: CHAINS.map((chain) => {
      const venues = snapshot.opportunities.filter((entry) => entry.chain === chain);
      const ranked = rank(venues);
      const state = enablement.find((entry) => entry.chain === chain);
      return {
        chain,
        label: isMapChain(chain) ? ('Map' as const) : ('Executable' as const),
        writeReady: state?.writeReady ?? false,
        executionMode: state?.executionMode ?? 'disabled',
        venues: venues.length,
        readyVenues: venues.filter((entry) => entry.ready).length,
        protocols: [...new Set(venues.map((entry) => entry.protocol))],
        bestApyBps: ranked[0]?.grossApyBps ?? null,
        opportunities: ranked.map(toHomeRow),
      };
    }),
  };
}

export interface EstimateInput {
  /** svcop…, bare venue id or form- alias; every opportunity when absent. */
  readonly opportunityId?: string | undefined;
  /** Where the input came from, for error fields: `query` (GET) or `body` (POST). */
  readonly location: 'query' | 'body';
  readonly amountMicros: bigint;
  readonly days?: number | undefined;
  readonly apyBasis?: 'live' | 'mean30d' | undefined;
}

/** The projection, or null for an APY outside what a projection accepts; 400 on a huge amount. */
function project(input: EstimateInput, apyBps: number, days: number) {
  try {
    return projectYield({ amountMicros: input.amountMicros, apyBps, days });
  } catch (error) {
    if (!(error instanceof FeeError) || error.field !== 'amountMicros') return null;
    const field = `${input.location}.amountMicros`;
    throw new EngineError('BAD_REQUEST', `${field}: ${error.shortMessage}`, field);
  }
}

/**
 * Projected yield for an amount and horizon from the live or the 30-day mean APY, net of the
 * yield skim (packages/fees `projectYield`). Where the chosen APY is null the estimate is null
 * with the reason — never 0, and never the other basis silently.
 */
export function estimateYield(
  snapshot: OpportunitySnapshot,
  input: EstimateInput,
): EstimatesDocument {
  const days = input.days ?? 365;
  const apyBasis = input.apyBasis ?? 'live';
  let targets: readonly Opportunity[] = snapshot.opportunities;
  if (input.opportunityId !== undefined) {
    const found = findOpportunity(snapshot.opportunities, input.opportunityId);
    if (!found) {
      const field = `${input.location}.opportunityId`;
      throw new EngineError(
        'strategy_unknown',
        `${field}: no opportunity ${input.opportunityId.slice(0, 128)}`,
        field,
      );
    }
    targets = [found];
  }
  const estimates = targets.map((entry) => {
    const apyBps = apyBasis === 'live' ? entry.grossApyBps : entry.apyMean30dBps;
    const base = {
      opportunityId: entry.opportunityId,
      venueId: entry.venueId,
      chain: entry.chain,
      protocol: entry.protocol,
      apyBps,
    };
    const unpriced = (reason: string) => ({
      ...base,
      grossYieldMicros: null,
      yieldSkimMicros: null,
      netYieldMicros: null,
      reason,
    });
    if (apyBps === null) {
      return unpriced(
        apyBasis === 'live'
          ? (entry.apy.reason ?? 'apy_unknown')
          : `too_few_samples (${entry.apyMean30dSamples} in 30 days)`,
      );
    }
    const projected = project(input, apyBps, days);
    if (projected === null) return unpriced('apy_out_of_range');
    return {
      ...base,
      grossYieldMicros: formatMicros(projected.grossYieldMicros),
      yieldSkimMicros: formatMicros(projected.skimMicros),
      netYieldMicros: formatMicros(projected.netMicros),
      reason: null,
    };
  });
  return {
    schemaVersion: 'svc-estimates.v1',
    asOf: snapshot.asOf,
    amountMicros: formatMicros(input.amountMicros),
    days,
    apyBasis,
    method:
      'simple pro rata of the annual APY over the horizon (no compounding inside it), rounded ' +
      'down to the micro; the yield skim is taken from the gross',
    yieldSkimBps: defaultFeeSchedule.yieldSkimBps,
    estimates,
  };
}
