import { OPPORTUNITIES_DEFAULT_LIMIT } from '@yieldrouter/schemas';
import type { OpportunitiesQuery, OpportunityList } from '@yieldrouter/schemas';
import { EngineError } from '../errors';
import { filterOpportunities } from './filterOpportunities';
import { opportunityComparator } from './rankOpportunities';
import type { OpportunitySnapshot } from './opportunitySnapshots';

/**
 * One page of GET /svc/opportunities: the snapshot filtered (see `filterOpportunities`), sorted
 * by `sortBy` in `order` (default desc; unknown values last; catalog order without `sortBy`, and
 * `sortBy=apy&order=desc` is the home ranking), then `limit` rows after `cursor`. The cursor
 * is the last opportunity id of the previous page; one that is not in this listing (the
 * filters differ, or the opportunity left) is a 400 naming `query.cursor`.
 */
export function queryOpportunities(
  snapshot: OpportunitySnapshot,
  query: OpportunitiesQuery = {},
): OpportunityList {
  const { matching } = filterOpportunities(snapshot.opportunities, query, 'query');
  const sorted =
    query.sortBy === undefined
      ? matching
      : matching.sort(opportunityComparator(query.sortBy, query.order ?? 'desc'));
  let start = 0;
  if (query.cursor !== undefined) {
    const index = sorted.findIndex((entry) => entry.opportunityId === query.cursor);
    if (index < 0) {
      throw new EngineError(
        'BAD_REQUEST',
        'query.cursor: not in this listing (other filters, or the opportunity left); start ' +
          'again without a cursor',
        'query.cursor',
      );
    }
    start = index + 1;
  }
  const limit = query.limit ?? OPPORTUNITIES_DEFAULT_LIMIT;
  const page = sorted.slice(start, start + limit);
  const last = page[page.length - 1];
  return {
    schemaVersion: 'svc-opportunities.v1',
    count: page.length,
    total: sorted.length,
    nextCursor: start + limit < sorted.length && last ? last.opportunityId : null,
    asOf: snapshot.asOf,
    opportunities: page,
  };
}
