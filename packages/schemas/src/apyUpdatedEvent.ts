import { z } from 'zod';
import { Chain } from './chains';

/**
 * The payload of an `apy.updated` event: written to the outbox by the APY refresh, in the same
 * transaction as the history rows, once per venue whose APY changed since its previous stored
 * reading — another value, or known ↔ unknown. Readings that repeat the value write no event.
 */
export const ApyUpdatedPayload = z
  .object({
    venueId: z.string(),
    opportunityId: z.string(),
    chain: Chain,
    previousApyBps: z.number().int().nullable().meta({
      description: 'The previous stored reading; null when it was unknown or there was none.',
    }),
    apyBps: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'The new reading; null when the source failed (see `reason`).' }),
    apyBaseBps: z.number().int().nullable(),
    apyRewardBps: z.number().int().nullable(),
    reason: z
      .string()
      .nullable()
      .meta({ description: 'Why `apyBps` is null (e.g. source_timeout); null when known.' }),
    source: z.string().meta({ examples: ['defillama'] }),
    asOf: z.string().meta({ description: 'When the new reading was taken (ISO 8601).' }),
  })
  .meta({ description: 'apy.updated: a venue APY changed (or became known / unknown).' });
export type ApyUpdatedPayload = z.infer<typeof ApyUpdatedPayload>;
