import { z } from 'zod';
import { Chain } from './chains';
import { PositiveMicrosString } from './money';
import { DiscoverSort } from './opportunities';
import { ShareBps } from './params';

// The discovery domain's requests: estimate and discover.

const EstimateDays = z
  .number()
  .int()
  .min(1)
  .max(3650)
  .meta({ description: 'Horizon in days (1..3650); default 365.' });
const ApyBasis = z.enum(['live', 'mean30d']).meta({
  description: 'Which APY to project from: the latest reading (default) or the 30-day mean.',
});
const EstimateOpportunityId = z
  .string()
  .min(1)
  .max(128)
  .meta({ description: 'svcop…, a bare venue id or form-<id>; every opportunity when absent.' });

export const EstimateRequest = z.strictObject({
  opportunityId: EstimateOpportunityId.optional(),
  amountMicros: PositiveMicrosString,
  days: EstimateDays.optional(),
  apyBasis: ApyBasis.optional(),
});

/** The same fields as query parameters (`days` arrives as text). */
export const EstimateQuery = EstimateRequest.extend({
  days: z.coerce.number().int().min(1).max(3650).pipe(EstimateDays).optional(),
});

export const DiscoverRequest = z.strictObject({
  chain: Chain.optional(),
  protocol: z.string().min(1).max(64).optional().meta({ description: 'A catalog protocol name.' }),
  asset: z.string().min(1).max(32).optional().meta({ description: 'e.g. USDC.' }),
  minApyBps: ShareBps.optional().meta({
    description: 'Keeps venues whose live APY is known and at least this.',
  }),
  minTvlUsd: z
    .number()
    .int()
    .min(0)
    .max(1_000_000_000_000)
    .optional()
    .meta({ description: 'Keeps venues whose TVL is known and at least this many USD.' }),
  ready: z.boolean().optional().meta({ description: 'Only venues ready (true) or not (false).' }),
  sort: DiscoverSort.optional().meta({ description: 'Default apy_desc (unknown APY last).' }),
  limit: z.number().int().min(1).max(200).optional().meta({ description: 'Default 50.' }),
});
export type DiscoverRequest = z.output<typeof DiscoverRequest>;
