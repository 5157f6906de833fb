import { readApyHistory } from '@yieldrouter/ledger';
import type { Books } from '@yieldrouter/ledger';
import type { ApyHistoryDocument, ApyHistoryWindow, Opportunity } from '@yieldrouter/schemas';
import { EngineError } from '../errors';
import { findOpportunity } from './listOpportunities';
import { windowMinSamples } from './venueConfig';
import type { VenueConfig } from './venueConfig';

const DAY_MS = 24 * 3600 * 1000;
const WINDOW_DAYS: Record<ApyHistoryWindow, number> = { '7d': 7, '30d': 30, '90d': 90 };

export interface OpportunityApyHistoryParameters {
  readonly db: Books;
  readonly venues: VenueConfig;
  readonly opportunities: readonly Opportunity[];
  /** svcop…, a bare venue id or form-<id> (from `path.id`). */
  readonly id: string;
  readonly window?: ApyHistoryWindow | undefined;
  readonly now: Date;
}

/**
 * An opportunity's APY history from the stored samples: one point per UTC day of the window
 * (mean, min, max and count of its ok samples; null figures on a day without one) and the
 * window mean. The window mean is what the listing serves as apyMean30dBps for 30d (same
 * samples, same rounding, same minimum count), so the chart and the autopilot agree.
 */
export async function readOpportunityApyHistory(
  parameters: OpportunityApyHistoryParameters,
): Promise<ApyHistoryDocument> {
  const found = findOpportunity(parameters.opportunities, parameters.id);
  if (!found) {
    throw new EngineError(
      'strategy_unknown',
      `path.id: no opportunity ${parameters.id.slice(0, 128)}`,
      'path.id',
    );
  }
  const window = parameters.window ?? '30d';
  const days = WINDOW_DAYS[window];
  const to = parameters.now;
  const from = new Date(to.getTime() - days * DAY_MS);
  const history = await readApyHistory(parameters.db, found.venueId, from, to);
  const minSamples = windowMinSamples(parameters.venues, days);
  return {
    schemaVersion: 'svc-apy-history.v1',
    opportunityId: found.opportunityId,
    venueId: found.venueId,
    window,
    from: from.toISOString(),
    to: to.toISOString(),
    meanBps: history.samples >= minSamples ? history.meanBps : null,
    samples: history.samples,
    minSamples,
    points: history.days.map((day) => ({ ...day })),
  };
}
