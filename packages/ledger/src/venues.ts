import type { Books } from './books';
import type { Prisma } from './generated/prisma/client';

/** A catalog entry as stored. The opportunity id is not part of it: it is minted once. */
export interface VenueCatalogRow {
  readonly id: string;
  readonly protocol: string;
  readonly chain: string;
  readonly asset: string;
  readonly readiness: 'ready' | 'listed' | 'planned';
  readonly standard: string;
  readonly wave: number;
  readonly priority: number;
  readonly actions: readonly string[];
  readonly requiredIds: readonly string[];
  readonly minDepositMicros: bigint;
}

/**
 * Inserts new venues and updates the catalog fields of known ones, in one transaction. A new
 * venue gets `mintOpportunityId()`; a known venue keeps the opportunity id it was given first,
 * so ids survive restarts and re-seeding.
 */
export async function upsertVenueCatalog(
  db: Books,
  rows: readonly VenueCatalogRow[],
  catalogVersion: number,
  mintOpportunityId: () => string,
): Promise<void> {
  for (const row of rows) {
    const fields = {
      protocol: row.protocol,
      chain: row.chain,
      asset: row.asset,
      readiness: row.readiness,
      standard: row.standard,
      wave: row.wave,
      priority: row.priority,
      actions: [...row.actions],
      requiredIds: [...row.requiredIds],
      minDepositMicros: row.minDepositMicros,
      catalogVersion,
    };
    await db.venue.upsert({
      where: { id: row.id },
      create: { id: row.id, opportunityId: mintOpportunityId(), ...fields },
      update: { ...fields, updatedAt: new Date() },
    });
  }
}

export interface ApySampleInput {
  readonly venueId: string;
  readonly source: string;
  readonly observedAt: Date;
  readonly value:
    | {
        readonly status: 'ok';
        readonly apyBps: number;
        readonly apyBaseBps: number | null;
        readonly apyRewardBps: number | null;
        readonly tvlUsdMicros: bigint | null;
        /** What the source said of the pool beside its APY (JSON; the engine parses it). */
        readonly poolFacts?: Prisma.InputJsonValue | undefined;
      }
    | { readonly status: 'unavailable'; readonly reason: string };
}

/** Appends one history row per reading (ok or unavailable). */
export async function insertApySamples(
  db: Books,
  samples: readonly ApySampleInput[],
): Promise<number> {
  const result = await db.apySample.createMany({
    data: samples.map(({ venueId, source, observedAt, value }) =>
      value.status === 'ok'
        ? {
            venueId,
            source,
            observedAt,
            status: 'ok',
            apyBps: value.apyBps,
            apyBaseBps: value.apyBaseBps,
            apyRewardBps: value.apyRewardBps,
            tvlUsdMicros: value.tvlUsdMicros,
            ...(value.poolFacts === undefined ? {} : { poolFacts: value.poolFacts }),
          }
        : { venueId, source, observedAt, status: 'unavailable', reason: value.reason },
    ),
  });
  return result.count;
}

export interface VenueWithApyRow extends VenueCatalogRow {
  readonly opportunityId: string;
  /** The most recent reading, ok or not; null when the venue was never refreshed. */
  readonly latest: {
    readonly status: 'ok' | 'unavailable';
    readonly source: string;
    readonly apyBps: number | null;
    readonly apyBaseBps: number | null;
    readonly apyRewardBps: number | null;
    readonly tvlUsdMicros: bigint | null;
    readonly reason: string | null;
    /** The source's pool facts of this reading, as stored (unparsed); null when none. */
    readonly poolFacts: unknown;
    readonly observedAt: Date;
  } | null;
  /** Mean of the ok samples of the last 30 days (rounded), and how many there were. */
  readonly meanBps: number | null;
  readonly meanSamples: number;
  /** The same over the last 7 days and the last 24 hours. */
  readonly mean7dBps: number | null;
  readonly mean7dSamples: number;
  readonly mean1dBps: number | null;
  readonly mean1dSamples: number;
  /** The latest read of the venue on its chain (unparsed facts), or null when never read. */
  readonly chainRead: { readonly facts: unknown; readonly observedAt: Date } | null;
}

interface RawRow {
  id: string;
  opportunity_id: string;
  protocol: string;
  chain: string;
  asset: string;
  readiness: 'ready' | 'listed' | 'planned';
  standard: string;
  wave: number;
  priority: number;
  actions: string[];
  required_ids: string[];
  min_deposit_micros: bigint;
  status: 'ok' | 'unavailable' | null;
  source: string | null;
  apy_bps: number | null;
  apy_base_bps: number | null;
  apy_reward_bps: number | null;
  tvl_usd_micros: bigint | null;
  reason: string | null;
  pool_facts: unknown;
  observed_at: Date | null;
  mean_bps: number | null;
  samples: number;
  mean_7d_bps: number | null;
  samples_7d: number;
  mean_1d_bps: number | null;
  samples_1d: number;
  chain_facts: unknown;
  chain_observed_at: Date | null;
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * Every venue with its latest APY reading, the means of its ok samples over the 30 days, 7 days
 * and 24 hours before `now` (each `round(avg)`, as `readApyHistory` computes a window mean),
 * and its latest chain read.
 */
export async function listVenuesWithApy(db: Books, now: Date): Promise<VenueWithApyRow[]> {
  const since = (days: number) => new Date(now.getTime() - days * DAY_MS);
  const [d30, d7, d1] = [since(30), since(7), since(1)];
  const rows = await db.$queryRaw<RawRow[]>`
    SELECT v.id, v.opportunity_id, v.protocol, v.chain, v.asset, v.readiness, v.standard,
           v.wave, v.priority, v.actions, v.required_ids, v.min_deposit_micros,
           l.status, l.source, l.apy_bps, l.apy_base_bps, l.apy_reward_bps, l.tvl_usd_micros,
           l.reason, l.pool_facts, l.observed_at, m.mean_bps, m.samples, m.mean_7d_bps,
           m.samples_7d, m.mean_1d_bps, m.samples_1d,
           c.facts AS chain_facts, c.observed_at AS chain_observed_at
      FROM venues v
      LEFT JOIN LATERAL (
        SELECT * FROM apy_samples s WHERE s.venue_id = v.id
         ORDER BY s.observed_at DESC, s.id DESC LIMIT 1
      ) l ON true
      CROSS JOIN LATERAL (
        SELECT round(avg(s.apy_bps))::int AS mean_bps, count(*)::int AS samples,
               round(avg(s.apy_bps) FILTER (WHERE s.observed_at >= ${d7}))::int AS mean_7d_bps,
               (count(*) FILTER (WHERE s.observed_at >= ${d7}))::int AS samples_7d,
               round(avg(s.apy_bps) FILTER (WHERE s.observed_at >= ${d1}))::int AS mean_1d_bps,
               (count(*) FILTER (WHERE s.observed_at >= ${d1}))::int AS samples_1d
          FROM apy_samples s
         WHERE s.venue_id = v.id AND s.status = 'ok' AND s.observed_at >= ${d30}
      ) m
      LEFT JOIN venue_chain_reads c ON c.venue_id = v.id
     ORDER BY v.wave, v.priority, v.id`;
  return rows.map((row) => ({
    id: row.id,
    opportunityId: row.opportunity_id,
    protocol: row.protocol,
    chain: row.chain,
    asset: row.asset,
    readiness: row.readiness,
    standard: row.standard,
    wave: row.wave,
    priority: row.priority,
    actions: row.actions,
    requiredIds: row.required_ids,
    minDepositMicros: row.min_deposit_micros,
    latest:
      row.status && row.source && row.observed_at
        ? {
            status: row.status,
            source: row.source,
            apyBps: row.apy_bps,
            apyBaseBps: row.apy_base_bps,
            apyRewardBps: row.apy_reward_bps,
            tvlUsdMicros: row.tvl_usd_micros,
            reason: row.reason,
            poolFacts: row.pool_facts,
            observedAt: row.observed_at,
          }
        : null,
    meanBps: row.mean_bps,
    meanSamples: row.samples,
    mean7dBps: row.mean_7d_bps,
    mean7dSamples: row.samples_7d,
    mean1dBps: row.mean_1d_bps,
    mean1dSamples: row.samples_1d,
    chainRead:
      row.chain_observed_at === null
        ? null
        : { facts: row.chain_facts, observedAt: row.chain_observed_at },
  }));
}
