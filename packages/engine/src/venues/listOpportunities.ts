import { listVenuesWithApy } from '@yieldrouter/ledger';
import type { Books, VenueWithApyRow } from '@yieldrouter/ledger';
import type { ChainEnablement, Opportunity } from '@yieldrouter/schemas';
import {
  Chain,
  Opportunity as OpportunitySchema,
  VenueReadiness,
  catalogStatusOf,
  formatMicros,
  normalizeOpportunityId,
} from '@yieldrouter/schemas';
import { buildOpportunityFacts } from './buildOpportunityFacts';
import { depositGate, notReadyReason } from './notReadyReason';
import { windowMinSamples } from './venueConfig';
import type { VenueConfig } from './venueConfig';

const VenueStandardSchema = OpportunitySchema.shape.standard;

/** A windowed mean, or null with fewer samples than the window needs. */
const windowMean = (mean: number | null, samples: number, days: number, venues: VenueConfig) =>
  samples >= windowMinSamples(venues, days) ? mean : null;

const TIME_LOCK_REASON =
  'the venue standard has no readable withdrawal lock, and none is configured for this venue';

export interface ListOpportunitiesParameters {
  readonly db: Books;
  readonly venues: VenueConfig;
  readonly enablement: readonly ChainEnablement[];
  readonly now: Date;
}

function toOpportunity(
  row: VenueWithApyRow,
  { venues, enablement, now }: Omit<ListOpportunitiesParameters, 'db'>,
): Opportunity {
  const chain = Chain.parse(row.chain);
  const readiness = VenueReadiness.parse(row.readiness);
  const chainState = enablement.find((entry) => entry.chain === chain);
  const ids = venues.ids[row.id] ?? {};
  const missingIds = row.requiredIds.filter((name) => !ids[name]);
  const latest = row.latest;
  const stale = latest !== null && now.getTime() - latest.observedAt.getTime() > venues.apyMaxAgeMs;
  const value = latest?.status === 'ok' && !stale ? latest.apyBps : null;
  const reason =
    latest === null
      ? venues.apyPools[row.id]
        ? 'not_read_yet'
        : 'source_not_configured'
      : stale
        ? 'stale'
        : latest.status === 'ok'
          ? null
          : latest.reason;
  const ready = row.readiness === 'ready' && missingIds.length === 0;
  const writeReady = ready && (chainState?.writeReady ?? false);
  // What a deposit plan answers before it reads the request (the readiness test compares them).
  const gate = depositGate({
    venueId: row.id,
    readiness: row.readiness,
    missingIds,
    takesDeposits: row.actions.includes('deposit'),
    chainGaps: venues.chainGaps?.[chain] ?? [],
  });
  const configured = gate.missingSettings.length === 0 && row.readiness === 'ready';
  return {
    opportunityId: row.opportunityId,
    strategyId: row.id,
    venueId: row.id,
    formId: `form-${row.id}`,
    protocol: row.protocol,
    chain,
    asset: row.asset,
    standard: VenueStandardSchema.parse(row.standard),
    ready,
    catalogStatus: catalogStatusOf(readiness),
    readiness,
    missingIds,
    missingSettings: [...gate.missingSettings],
    depositBlocker: gate.blocker,
    depositBlockedReason: gate.reason,
    notReadyReason: notReadyReason(row.id, row.readiness, missingIds),
    writeReady,
    executionMode: chainState?.executionMode ?? 'disabled',
    grossApyBps: value,
    gross_apy_bps: value,
    apy: {
      totalBps: value,
      baseBps: value === null ? null : (latest?.apyBaseBps ?? null),
      rewardBps: value === null ? null : (latest?.apyRewardBps ?? null),
      d1Bps: windowMean(row.mean1dBps, row.mean1dSamples, 1, venues),
      d1Samples: row.mean1dSamples,
      d7Bps: windowMean(row.mean7dBps, row.mean7dSamples, 7, venues),
      d7Samples: row.mean7dSamples,
      source: latest?.source ?? null,
      asOf: latest?.observedAt.toISOString() ?? null,
      stale,
      reason,
    },
    apyMean30dBps: windowMean(row.meanBps, row.meanSamples, 30, venues),
    apyMean30dSamples: row.meanSamples,
    tvlUsdMicros:
      value !== null && latest?.tvlUsdMicros != null ? formatMicros(latest.tvlUsdMicros) : null,
    ...buildOpportunityFacts(row, value !== null, reason, ids),
    timeLockSeconds: null,
    timeLockReason: TIME_LOCK_REASON,
    depositable: gate.blocker === null,
    redeemable: configured && row.actions.includes('withdraw'),
    wave: row.wave,
    priority: row.priority,
    actions: [...row.actions],
    minDepositMicros: formatMicros(row.minDepositMicros),
  };
}

/**
 * Every venue as an opportunity: catalog fields, readiness against configuration, the chain's
 * execution mode, and APY from stored history (latest reading, 30-day mean). Nothing is read
 * from outside here; `refreshApy` does that.
 */
export async function listOpportunities(
  parameters: ListOpportunitiesParameters,
): Promise<Opportunity[]> {
  const rows = await listVenuesWithApy(parameters.db, parameters.now);
  return rows.map((row) => toOpportunity(row, parameters));
}

/** `svcop…`, a bare venue id, or `form-<venue_id>` → the opportunity, or undefined. */
export function findOpportunity(
  opportunities: readonly Opportunity[],
  id: string,
): Opportunity | undefined {
  const bare = normalizeOpportunityId(id);
  return opportunities.find((entry) => entry.opportunityId === id || entry.venueId === bare);
}
