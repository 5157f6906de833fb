import { ApyHistoryDocument, ApyHistoryQuery } from '../opportunityQuery';
import { IdParams } from '../params';
import { defineRoute } from './defineRoute';
import { ok } from './routeParts';

/** Per-opportunity reads beyond the listing. */
export const opportunityRoutes = {
  getOpportunityApyHistory: defineRoute({
    operationId: 'getOpportunityApyHistory',
    method: 'get',
    path: '/svc/opportunities/{id}/apy-history',
    versioned: true,
    auth: 'public',
    summary: 'Daily APY points (mean, min, max, samples) of one opportunity from stored samples.',
    description:
      'id: svcop…, a bare venue id or form-<id>. The window mean is computed like the ' +
      "listing's apyMean30dBps (the autopilot's 30-day rule), from the same samples.",
    tags: ['discovery'],
    request: { params: IdParams, query: ApyHistoryQuery },
    responses: ok(ApyHistoryDocument),
  }),
} as const;
