import type { Database } from '@yieldrouter/ledger';
import type { ApyReader, VenueConfig } from '@yieldrouter/engine';
import { findOpportunity, listOpportunities, refreshApy } from '@yieldrouter/engine';
import type { Chain, ChainEnablement, Opportunity } from '@yieldrouter/schemas';
import { MAP_CHAINS } from '@yieldrouter/schemas';
import { ApiError } from '../http/apiError';
import type { Handlers } from '../http/mountRoutes';

export interface VenueHandlerDeps {
  readonly db: Database;
  readonly venues: VenueConfig;
  readonly enablement: readonly ChainEnablement[];
  readonly apyReader: ApyReader;
  readonly now?: () => Date;
}

export const AUTOPILOT_STRATEGY_ID = 'svc-autopilot-top-30d-monthly';
/** SPEC: the autopilot switches only when the challenger is at least 7 percentage points better. */
const AUTOPILOT_SWITCH_THRESHOLD_BPS = 700;

const byPriority = (a: Opportunity, b: Opportunity) =>
  a.wave - b.wave || a.priority - b.priority || a.venueId.localeCompare(b.venueId);

/** Discovery: venues, opportunities, strategies, legacy forms, the APY table and its refresh. */
export function venueHandlers(deps: VenueHandlerDeps): Handlers {
  const now = deps.now ?? (() => new Date());
  const list = () =>
    listOpportunities({
      db: deps.db.prisma,
      venues: deps.venues,
      enablement: deps.enablement,
      now: now(),
    });
  const refresh = () =>
    refreshApy({ db: deps.db.prisma, reader: deps.apyReader, venues: deps.venues, now });
  const ok = <T>(body: T) => ({ status: 200, body });
  const venueList = (venues: Opportunity[], live: boolean) =>
    ok({
      schemaVersion: 'svc-venues.v1' as const,
      count: venues.length,
      asOf: now().toISOString(),
      live,
      venues,
    });
  const featured = (opportunities: readonly Opportunity[]) => {
    const candidates = opportunities.filter((entry) => entry.ready);
    const leader = [...candidates]
      .filter((entry) => entry.apyMean30dBps !== null)
      .sort((a, b) => (b.apyMean30dBps ?? 0) - (a.apyMean30dBps ?? 0))[0];
    return {
      strategyId: AUTOPILOT_STRATEGY_ID,
      kind: 'autopilot' as const,
      description:
        'Re-ranks monthly to the top 30-day mean APY among ready venues; switches only when the ' +
        'challenger is at least 7 percentage points better.',
      rerank: 'monthly' as const,
      metric: 'apyMean30dBps' as const,
      switchThresholdBps: AUTOPILOT_SWITCH_THRESHOLD_BPS,
      candidates: candidates.map((entry) => entry.venueId),
      currentLeader: leader?.venueId ?? null,
    };
  };
  const strategies = async (sorted: boolean) => {
    const all = await list();
    const ordered = sorted ? [...all].sort(byPriority) : all;
    return ok({
      schemaVersion: 'svc-strategies.v1' as const,
      count: ordered.length,
      strategies: ordered,
      featured: featured(all),
    });
  };
  const forms = async (sorted: boolean) => {
    const all = await list();
    const ordered = sorted ? [...all].sort(byPriority) : all;
    return ok({
      schemaVersion: 'svc-forms.v1' as const,
      deprecated: true as const,
      count: ordered.length,
      forms: ordered,
    });
  };

  return {
    listVenues: async ({ query }) => {
      const live = query.live === '1';
      if (live) await refresh();
      const all = await list();
      return venueList(
        query.chain ? all.filter((entry) => entry.chain === query.chain) : all,
        live,
      );
    },
    listAutoYieldVenues: async () =>
      venueList(
        (await list()).filter((entry) => entry.ready),
        false,
      ),
    listMapVenues: async () =>
      venueList(
        (await list()).filter((entry) => (MAP_CHAINS as readonly Chain[]).includes(entry.chain)),
        false,
      ),
    refreshMapVenues: async () => ok(await refresh()),
    getVenueApy: async () => {
      const all = await list();
      const known = all.filter((entry) => entry.grossApyBps !== null).length;
      return ok({
        schemaVersion: 'svc-venue-apy.v1' as const,
        status:
          known === all.length
            ? ('ok' as const)
            : known === 0
              ? ('unavailable' as const)
              : ('partial' as const),
        asOf: now().toISOString(),
        venues: all.map((entry) => ({
          venueId: entry.venueId,
          opportunityId: entry.opportunityId,
          chain: entry.chain,
          grossApyBps: entry.grossApyBps,
          gross_apy_bps: entry.gross_apy_bps,
          apyMean30dBps: entry.apyMean30dBps,
          apyMean30dSamples: entry.apyMean30dSamples,
          apy: entry.apy,
        })),
      });
    },
    listOpportunities: async () => {
      const all = await list();
      return ok({
        schemaVersion: 'svc-opportunities.v1' as const,
        count: all.length,
        asOf: now().toISOString(),
        opportunities: all,
      });
    },
    listStrategies: () => strategies(false),
    listStrategiesPriority: () => strategies(true),
    getStrategy: async ({ params }) => {
      const all = await list();
      if (params.id === AUTOPILOT_STRATEGY_ID) return ok(featured(all));
      const found = findOpportunity(all, params.id);
      if (!found) {
        throw new ApiError('strategy_unknown', `path.id: no strategy ${params.id}`, {
          field: 'path.id',
        });
      }
      return ok(found);
    },
    listForms: () => forms(false),
    listFormsPriority: () => forms(true),
    getForm: async ({ params }) => {
      if (params.id.trim() === '' || params.id === 'form-') {
        throw new ApiError('MISSING_FORM_ID', 'path.id: a form id is required', {
          field: 'path.id',
        });
      }
      const found = findOpportunity(await list(), params.id);
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
      return ok(found);
    },
  };
}
