// The query of GET /svc/opportunities and the APY history document.
import { z } from 'zod';
import { Chain } from './chains';
import { decimalUpToPattern } from './money';
import { VenueReadiness } from './opportunities';

const Bps = z.number().int();

/** A whole number in a query string, at most `maxDigits` digits, parsed to a number. */
const WholeQuery = (maxDigits: number, description: string) =>
  z
    .string()
    .max(maxDigits)
    .regex(new RegExp(`^(0|[1-9][0-9]{0,${maxDigits - 1}})$`), {
      error: `must be a whole number of at most ${maxDigits} digits`,
    })
    .transform(Number)
    .meta({ description });

export const OpportunitySortBy = z.enum(['apy', 'apy30d', 'tvl']);
export type OpportunitySortBy = z.infer<typeof OpportunitySortBy>;
export const SortOrder = z.enum(['asc', 'desc']);
export type SortOrder = z.infer<typeof SortOrder>;

/** Page size of GET /svc/opportunities when `limit` is absent, and its largest value. */
export const OPPORTUNITIES_DEFAULT_LIMIT = 100;
export const OPPORTUNITIES_MAX_LIMIT = 200;

/** A yes/no query parameter as v1 clients send it: `1`/`true` or `0`/`false`. */
const QueryFlag = z
  .enum(['1', 'true', '0', 'false'])
  .transform((value) => value === '1' || value === 'true');

const MinTvlUsd = WholeQuery(
  13,
  'Keeps opportunities whose USD TVL is known and at least this.',
).pipe(z.number().int().min(0));

/**
 * The filters every discovery listing takes (opportunities, strategies, forms, map venues),
 * as v1 clients send them; each optional, unknown parameters a 400 naming them.
 */
const listingFilters = {
  chain: Chain.optional(),
  minTvlUsd: MinTvlUsd.optional(),
  min_tvl_usd: MinTvlUsd.optional().meta({
    description: 'Alias of minTvlUsd (v1 clients); with both, they must be equal.',
  }),
  status: VenueReadiness.optional().meta({
    description: 'Only venues of this readiness (ready, listed or planned).',
  }),
  ready: QueryFlag.optional().meta({
    description: 'Only ready (`1`/`true`) or not-ready (`0`/`false`) venues (v1 clients).',
  }),
  live: QueryFlag.optional().meta({
    description:
      '`1`/`true`: read the APYs from the source for this call first (as `GET /svc/venues?live=1`).',
  }),
  wave: WholeQuery(2, "Only venues of this rollout wave (the opportunity's `wave`).").optional(),
};

/** The query of GET /svc/strategies, /svc/forms and /svc/map/venues (and their priority lists). */
export const ListingQuery = z.strictObject(listingFilters);
export type ListingQuery = z.output<typeof ListingQuery>;

export const OpportunitiesQuery = z.strictObject({
  ...listingFilters,
  asset: z.string().min(1).max(32).optional().meta({ description: 'e.g. USDC (case-blind).' }),
  protocol: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .meta({ description: 'A protocol name (case-blind) or one of its bare venue ids.' }),
  minApyBps: z
    .string()
    .max(5)
    .regex(new RegExp(decimalUpToPattern(10_000n)), { error: 'must be a whole number 0..10000' })
    .transform(Number)
    .optional()
    .meta({ description: 'Keeps opportunities whose live APY is known and at least this (bps).' }),
  depositable: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional()
    .meta({ description: 'Only opportunities a deposit plan can (true) or cannot (false) use.' }),
  sortBy: OpportunitySortBy.optional().meta({
    description:
      'apy: live APY, then 30-day mean; apy30d: 30-day mean, then live APY; tvl: USD TVL. ' +
      'Unknown values always last; ties in catalog order. Absent: catalog order.',
  }),
  order: SortOrder.optional().meta({ description: 'Default desc (with sortBy).' }),
  limit: WholeQuery(3, `Page size, 1 to ${OPPORTUNITIES_MAX_LIMIT}.`)
    .pipe(z.number().int().min(1).max(OPPORTUNITIES_MAX_LIMIT))
    .optional()
    .meta({ description: `Default ${OPPORTUNITIES_DEFAULT_LIMIT}.` }),
  cursor: z
    .string()
    .max(69)
    .regex(/^svcop[0-9a-f]{1,64}$/, { error: 'must be a nextCursor from a previous page' })
    .optional()
    .meta({ description: 'nextCursor of the previous page (same filters and sort).' }),
});
export type OpportunitiesQuery = z.output<typeof OpportunitiesQuery>;

export const ApyHistoryWindow = z.enum(['7d', '30d', '90d']);
export type ApyHistoryWindow = z.infer<typeof ApyHistoryWindow>;

export const ApyHistoryQuery = z.strictObject({
  window: ApyHistoryWindow.optional().meta({ description: 'Default 30d.' }),
});

export const ApyHistoryPoint = z.object({
  day: z.string().meta({ description: 'UTC day (YYYY-MM-DD).' }),
  meanBps: Bps.nullable().meta({ description: 'Mean of the ok samples that day; null without.' }),
  minBps: Bps.nullable(),
  maxBps: Bps.nullable(),
  samples: z.number().int(),
});
export type ApyHistoryPoint = z.infer<typeof ApyHistoryPoint>;

export const ApyHistoryDocument = z
  .object({
    schemaVersion: z.literal('svc-apy-history.v1'),
    opportunityId: z.string(),
    venueId: z.string(),
    window: ApyHistoryWindow,
    from: z.string().meta({ description: 'Start of the window (ISO 8601), inclusive.' }),
    to: z.string().meta({ description: 'End of the window (ISO 8601).' }),
    meanBps: Bps.nullable().meta({
      description:
        'Mean of every ok sample in the window; for 30d, the apyMean30dBps the listing and the ' +
        'autopilot use. Null with fewer than minSamples.',
    }),
    samples: z.number().int(),
    minSamples: z.number().int(),
    points: z.array(ApyHistoryPoint).meta({ description: 'One per UTC day, oldest first.' }),
  })
  .meta({ description: 'Daily APY points of one opportunity from the stored samples.' });
export type ApyHistoryDocument = z.infer<typeof ApyHistoryDocument>;
