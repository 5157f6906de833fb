import type {
  ApyReader,
  ChainAdapters,
  DepositBridging,
  OpportunitySnapshot,
  OpportunitySnapshots,
  RouteSwaps,
  VenueConfig,
  VenueUseCases,
} from '@yieldrouter/engine';
import {
  autopilotMinSamples,
  buildDiscoverMap,
  buildHomeDocument,
  byPriority,
  createOpportunitySnapshots,
  discoverOpportunities,
  estimateYield,
  filterOpportunities,
  findOpportunity,
  queryOpportunities,
  rankAutopilotCandidates,
} from '@yieldrouter/engine';
import type {
  Chain,
  ChainEnablement,
  DepositPlanRequest,
  ListingQuery,
  Opportunity,
  RouteDefinition,
} from '@yieldrouter/schemas';
import {
  AUTOPILOT_DEFAULT_MIN_DELTA_BPS,
  AUTOPILOT_STRATEGY_ID,
  AutopilotChain,
  isMapChain,
} from '@yieldrouter/schemas';
import type { z } from 'zod';
import { ApiError } from '../http/apiError';
import type { Principal } from '../http/auth';
import type { HandlerContext, Handlers } from '../http/mountRoutes';
import { callerOf, ownsBothOf } from './ownerProof';
import { venueApyTable } from './venueApyTable';

export interface VenueHandlerDeps {
  /** The venue use cases, on the books. */
  readonly venueUseCases: VenueUseCases;
  readonly venues: VenueConfig;
  readonly enablement: readonly ChainEnablement[];
  readonly apyReader: ApyReader;
  readonly adapters: ChainAdapters;
  /** The venueUseCases the discovery routes serve (shared with the wallet routes). */
  readonly snapshots: OpportunitySnapshots;
  /** Where a deposit of another token than USDC swaps it (cross-asset); unset: USDC only. */
  readonly swaps?: RouteSwaps | undefined;
  /** Where a cross-chain deposit with `bridge: true` bridges; unset: it is blocked. */
  readonly bridging?: DepositBridging | undefined;
  /**
   * The owner behind a raw API key, or null when it is unknown or revoked: a key sent along on
   * the public deposit route proves funds on another chain family the owner's (`ownsBothOf`).
   */
  readonly resolveKey?: ((raw: string) => Promise<Principal | null>) | undefined;
  /** Each chain's treasury: withdrawals where the owner holds the receipts pay the skim there. */
  readonly treasuries?: Readonly<Partial<Record<Chain, string | null>>> | undefined;
  readonly now?: () => Date;
}

/** A parsed query as a cache key: its defined fields in name order. */
const queryKey = (query: Readonly<Record<string, unknown>>) =>
  JSON.stringify(
    Object.keys(query)
      .sort()
      .filter((name) => query[name] !== undefined)
      .map((name) => [name, query[name]]),
  );

/** Served with every snapshot document: clients may cache, and must revalidate (ETag). */
const REVALIDATE = 'public, no-cache';

/**
 * The venueUseCases as snapshots: re-read from the database at most every `ttlMs` (0: every call).
 */
export function venueSnapshots(deps: {
  readonly venueUseCases: VenueUseCases;
  readonly venues: VenueConfig;
  readonly enablement: readonly ChainEnablement[];
  readonly ttlMs: number;
  readonly now?: () => Date;
}): OpportunitySnapshots {
  const now = deps.now ?? (() => new Date());
  const load = () =>
    deps.venueUseCases.listOpportunities({
      venues: deps.venues,
      enablement: deps.enablement,
      now: now(),
    });
  return createOpportunitySnapshots({ load, ttlMs: deps.ttlMs, now });
}

/** Discovery: venues, opportunities, strategies, legacy forms, the APY table and its refresh. */
export function venueHandlers(deps: VenueHandlerDeps): Handlers {
  const now = deps.now ?? (() => new Date());
  const snapshots = deps.snapshots;
  const refresh = async () => {
    try {
      return await deps.venueUseCases.refreshApy({
        reader: deps.apyReader,
        venues: deps.venues,
        now,
        adapters: deps.adapters,
      });
    } finally {
      snapshots.invalidate();
    }
  };
  const ok = <T>(body: T) => ({ status: 200, body });
  /** A document built once per snapshot and key, served with its ETag (304 on a match). */
  const serve = <T extends object>(
    snapshot: OpportunitySnapshot,
    key: string,
    build: (view: OpportunitySnapshot) => T,
  ) => {
    const { body, etag } = snapshot.derive(key, build);
    return { status: 200, body, headers: { ETag: etag, 'Cache-Control': REVALIDATE } };
  };
  const cached = async <T extends object>(
    key: string,
    build: (snapshot: OpportunitySnapshot) => T,
  ) => serve(await snapshots.current(), key, build);
  /** The venueUseCases as stored, or in catalog priority order. */
  const ordered = (opportunities: readonly Opportunity[], sorted: boolean) =>
    sorted ? [...opportunities].sort(byPriority) : [...opportunities];
  /** The snapshot's opportunities matching a listing's query filters (all without a query). */
  const listed = (opportunities: readonly Opportunity[], query: ListingQuery = {}) =>
    filterOpportunities(opportunities, query, 'query').matching;
  const venueList = (
    key: string,
    pick: (entry: Opportunity) => boolean,
    live = false,
    query: ListingQuery = {},
  ) =>
    cached(`venues:${key}:${live}:${queryKey(query)}`, (snapshot) => {
      const venues = listed(snapshot.opportunities, query).filter(pick);
      return {
        schemaVersion: 'svc-venues.v1' as const,
        count: venues.length,
        asOf: snapshot.asOf,
        live,
        venues,
      };
    });
  const featured = (opportunities: readonly Opportunity[]) => {
    // The rule as a wallet with no allowlist and no guardrails sees it, on each autopilot chain.
    const leaders = AutopilotChain.options.map((chain) => ({
      chain,
      leader: rankAutopilotCandidates({ chain, opportunities, venueAllowlist: [] }).find(
        (entry) => entry.verdict === 'eligible',
      ),
    }));
    const best = leaders
      .flatMap(({ leader }) => (leader ? [leader] : []))
      .sort((a, b) => (b.apyMean30dBps ?? 0) - (a.apyMean30dBps ?? 0))[0];
    return {
      strategyId: AUTOPILOT_STRATEGY_ID,
      kind: 'autopilot' as const,
      description:
        'Within one chain (sui or solana), re-ranks monthly the ready opportunities by 30-day ' +
        'mean APY (a mean with too few samples never ranks) and switches from the position ' +
        'held only when the challenger is at least 7 percentage points better (+6.99 pp holds, ' +
        '+7.00 pp switches); never across chains.',
      rerank: 'monthly' as const,
      metric: 'apyMean30dBps' as const,
      switchThresholdBps: AUTOPILOT_DEFAULT_MIN_DELTA_BPS,
      minSamples: autopilotMinSamples(deps.venues),
      chains: [...AutopilotChain.options],
      candidates: opportunities
        .filter((entry) => entry.ready && AutopilotChain.safeParse(entry.chain).success)
        .map((entry) => entry.venueId),
      currentLeader: best?.venueId ?? null,
      leaders: leaders.map(({ chain, leader }) => ({
        chain,
        opportunityId: leader?.opportunityId ?? null,
        venueId: leader?.venueId ?? null,
        apyMean30dBps: leader?.apyMean30dBps ?? null,
      })),
    };
  };
  // SPEC: the strategies are the venues plus the autopilot strategy, listed after them unless a
  // filter leaves it out. It ranks every venue, whatever the listing's filters.
  const strategies = async (sorted: boolean, query: ListingQuery) => {
    if (query.live === true) await refresh();
    return cached(`strategies:${sorted}:${queryKey(query)}`, ({ opportunities }) => {
      const matching = ordered(listed(opportunities, query), sorted);
      const autopilot = featured(opportunities);
      const listsAutopilot =
        (query.chain === undefined || AutopilotChain.safeParse(query.chain).success) &&
        query.ready !== false &&
        (query.status === undefined || query.status === 'ready') &&
        query.wave === undefined;
      const entries = listsAutopilot ? [...matching, autopilot] : matching;
      return {
        schemaVersion: 'svc-strategies.v1' as const,
        count: entries.length,
        strategies: entries,
        featured: autopilot,
      };
    });
  };
  const forms = async (sorted: boolean, query: ListingQuery) => {
    if (query.live === true) await refresh();
    return cached(`forms:${sorted}:${queryKey(query)}`, ({ opportunities }) => {
      const matching = listed(opportunities, query);
      return {
        schemaVersion: 'svc-forms.v1' as const,
        deprecated: true as const,
        count: matching.length,
        forms: ordered(matching, sorted),
      };
    });
  };

  const plan =
    (kind: 'deposit' | 'withdraw') =>
    async ({
      body,
      header,
      recordWrite,
    }: {
      body: z.output<typeof DepositPlanRequest>;
      header: HandlerContext<RouteDefinition>['header'];
      recordWrite: HandlerContext<RouteDefinition>['recordWrite'];
    }) => {
      const id = body.opportunityId ?? body.strategyId ?? '';
      // Public: a key sent along only proves funds on another chain family the owner's.
      const caller = body.bridge === true ? await callerOf(header, deps.resolveKey) : null;
      const document = await deps.venueUseCases.prepareStrategyPlan({
        adapters: deps.adapters,
        venues: deps.venues,
        opportunities: (await snapshots.current()).opportunities,
        kind,
        request: {
          id,
          idField: body.opportunityId !== undefined ? 'body.opportunityId' : 'body.strategyId',
          amountMicros: body.amountMicros,
          owner: body.owner,
          token: body.token,
          slippageBps: body.slippageBps,
          crossChain: {
            sourceChain: body.sourceChain,
            sourceAddress: body.sourceAddress,
            bridge: body.bridge,
          },
        },
        swaps: deps.swaps,
        bridging: deps.bridging,
        ownsBoth: ownsBothOf(caller),
        treasuries: deps.treasuries,
        now: now(),
        recordWrite: recordWrite(ok),
      });
      return ok(document);
    };

  return {
    prepareDepositPlan: plan('deposit'),
    prepareWithdrawPlan: plan('withdraw'),
    listVenues: async ({ query }) => {
      const live = query.live === '1';
      if (live) await refresh();
      const chain = query.chain;
      return venueList(chain ?? 'all', (entry) => !chain || entry.chain === chain, live);
    },
    listAutoYieldVenues: () => venueList('auto-yield', (entry) => entry.ready),
    listMapVenues: ({ query }) =>
      venueList('map', (entry) => isMapChain(entry.chain), false, query),
    refreshMapVenues: async () => ok(await refresh()),
    getVenueApy: () =>
      cached('apy', ({ opportunities, asOf }) => venueApyTable(opportunities, asOf)),
    // One document per distinct query, built once per snapshot: filters and sort cost nothing
    // on a repeated call.
    listOpportunities: ({ query }) =>
      cached(`opportunities:${queryKey(query)}`, (snapshot) => queryOpportunities(snapshot, query)),
    getOpportunityApyHistory: async ({ params, query }) =>
      ok(
        await deps.venueUseCases.readApyHistory({
          venues: deps.venues,
          opportunities: (await snapshots.current()).opportunities,
          id: params.id,
          window: query.window,
          now: now(),
        }),
      ),
    getHome: () => cached('home', buildHomeDocument),
    discover: () => cached('discover', (snapshot) => discoverOpportunities(snapshot)),
    discoverFiltered: async ({ body }) =>
      ok(discoverOpportunities(await snapshots.current(), body)),
    getDiscoverMap: () =>
      cached('discover-map', (snapshot) => buildDiscoverMap(snapshot, deps.enablement)),
    getEstimates: async ({ query }) =>
      ok(estimateYield(await snapshots.current(), { ...query, location: 'query' })),
    postEstimates: async ({ body }) =>
      ok(estimateYield(await snapshots.current(), { ...body, location: 'body' })),
    listStrategies: ({ query }) => strategies(false, query),
    listStrategiesPriority: ({ query }) => strategies(true, query),
    getStrategy: async ({ params }) => {
      const snapshot = await snapshots.current();
      if (params.id === AUTOPILOT_STRATEGY_ID) {
        return serve(snapshot, 'autopilot', ({ opportunities }) => featured(opportunities));
      }
      const found = findOpportunity(snapshot.opportunities, params.id);
      if (!found) {
        throw new ApiError('strategy_unknown', `path.id: no strategy ${params.id}`, {
          field: 'path.id',
        });
      }
      return serve(snapshot, `strategy:${found.venueId}`, () => found);
    },
    listForms: ({ query }) => forms(false, query),
    listFormsPriority: ({ query }) => forms(true, query),
    getForm: async ({ params }) => {
      if (params.id.trim() === '' || params.id === 'form-') {
        throw new ApiError('MISSING_FORM_ID', 'path.id: a form id is required', {
          field: 'path.id',
        });
      }
      const snapshot = await snapshots.current();
      const found = findOpportunity(snapshot.opportunities, params.id);
      if (!found) {
        throw new ApiError('FORM_NOT_FOUND', `path.id: no form ${params.id}`, { field: 'path.id' });
      }
      if (!found.ready) {
        throw new ApiError(
          'FORM_NOT_READY',
          `path.id: form ${params.id} is not ready (${found.missingIds.length > 0 ? `needs ${found.missingIds.join(', ')}` : found.readiness})`,
          { field: 'path.id' },
        );
      }
      return serve(snapshot, `form:${found.venueId}`, () => found);
    },
  };
}
