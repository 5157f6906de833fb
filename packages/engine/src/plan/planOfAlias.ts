import { findOpenDepositPlans } from '@yieldrouter/ledger';
import type { Books } from '@yieldrouter/ledger';
import type { Opportunity } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { EngineError } from '../errors';
import { findOpportunity } from '../venues/listOpportunities';

export interface PlanOfAliasParameters {
  readonly db: Books;
  readonly adapters: ChainAdapters;
  readonly opportunities: readonly Opportunity[];
  /** The deposit plan's opportunity: venue id, form- alias or svcop… id. */
  readonly strategyId: string;
  readonly owner: string;
  readonly amountMicros: bigint;
}

const FIELD = 'body.planId';

/**
 * The plan a v1 execute names without its id (`strategyId`, `owner`, `amountMicros`): the one
 * prepared, unsubmitted deposit plan that matches. None is 404 PLAN_NOT_FOUND, several 409
 * PLAN_AMBIGUOUS; both name `body.planId`, which settles it.
 */
export async function planOfAlias(parameters: PlanOfAliasParameters): Promise<string> {
  const venue = findOpportunity(parameters.opportunities, parameters.strategyId);
  if (!venue) {
    throw new EngineError(
      'strategy_unknown',
      `body.strategyId: no opportunity ${parameters.strategyId}`,
      'body.strategyId',
    );
  }
  const owner = parameters.adapters[venue.chain].normalizeAddress(parameters.owner);
  const ids = owner
    ? await findOpenDepositPlans(parameters.db, {
        venueId: venue.venueId,
        owner,
        amountMicros: parameters.amountMicros,
        limit: 2,
      })
    : [];
  const [only, other] = ids;
  if (only === undefined) {
    throw new EngineError(
      'PLAN_NOT_FOUND',
      `${FIELD}: no prepared, unsubmitted deposit plan of ${parameters.amountMicros} micros into ` +
        `${venue.venueId} by ${parameters.owner}; send planId`,
      FIELD,
    );
  }
  if (other !== undefined) {
    throw new EngineError(
      'PLAN_AMBIGUOUS',
      `${FIELD}: several prepared deposit plans of ${parameters.amountMicros} micros into ` +
        `${venue.venueId} by ${parameters.owner}; send planId`,
      FIELD,
    );
  }
  return only;
}
