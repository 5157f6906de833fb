import { computePrincipalFee } from '@yieldrouter/fees';
import { insertPlan, runLedgerTransaction } from '@yieldrouter/ledger';
import type { PrismaClient, WriteRecorder } from '@yieldrouter/ledger';
import type { Blocker, LegBuild, Opportunity, PlanDocument } from '@yieldrouter/schemas';
import { formatMicros, newPlanId } from '@yieldrouter/schemas';
import { blocker } from './blocker';
import type { ChainAdapters } from '../chains/chainsConfig';
import { guardrailBlockers } from '../guardrails/guardrailBlockers';
import { EngineError } from '../errors';
import { findOpportunity } from '../venues/listOpportunities';
import type { VenueConfig } from '../venues/venueConfig';
import { venueOnChain } from '../venues/venueConfig';
import { planDocument, planRecord } from './planDocument';

export interface PrepareStrategyPlanRequest {
  /** The id as given (opportunity id, bare venue id or form- alias) and where it came from. */
  readonly id: string;
  readonly idField: string;
  readonly amountMicros: bigint;
  readonly owner: string | undefined;
}

export interface PrepareStrategyPlanParameters {
  readonly db: PrismaClient;
  readonly adapters: ChainAdapters;
  readonly venues: VenueConfig;
  /** The current listing (the discovery snapshot): readiness and ids come from configuration. */
  readonly opportunities: readonly Opportunity[];
  readonly kind: 'deposit' | 'withdraw';
  readonly request: PrepareStrategyPlanRequest;
  readonly now: Date;
  /** Stores the answer with the plan, in one transaction (Idempotency-Key). */
  readonly recordWrite?: WriteRecorder<PlanDocument> | undefined;
}

function checkRequest(
  opportunity: Opportunity,
  { kind, request, adapters }: PrepareStrategyPlanParameters,
): { owner: string | undefined; blockers: Blocker[] } {
  const blockers: Blocker[] = [];
  let owner: string | undefined;
  if (request.owner === undefined) {
    blockers.push(blocker('owner_missing', { field: 'owner' }));
  } else {
    owner = adapters[opportunity.chain].normalizeAddress(request.owner);
    if (!owner) {
      blockers.push(
        blocker('owner_malformed', { field: 'owner', details: { chain: opportunity.chain } }),
      );
    }
  }
  if (opportunity.readiness !== 'ready') {
    blockers.push(blocker('venue_not_ready', { details: { readiness: opportunity.readiness } }));
  }
  if (opportunity.missingIds.length > 0) {
    blockers.push(
      blocker('venue_not_configured', {
        field: `SVC_VENUE_IDS.${opportunity.venueId}`,
        details: { missing: opportunity.missingIds.join(',') },
      }),
    );
  }
  if (kind === 'deposit' && request.amountMicros < BigInt(opportunity.minDepositMicros)) {
    blockers.push(
      blocker('amount_below_minimum', {
        field: 'amountMicros',
        details: { minimumMicros: opportunity.minDepositMicros },
      }),
    );
  }
  return { owner, blockers };
}

/**
 * Prepares (or blocks) a deposit into / withdrawal from one venue, and stores the plan. Every
 * venue answers with the same shape: `prepared` with unsigned owner-sign legs built by the
 * chain adapter, or `blocked` with catalog blockers. Blocked is a result (HTTP 200), not an
 * error; only an unknown id is an error (404 `strategy_unknown`). With `recordWrite`, the answer
 * commits with the plan (Idempotency-Key): a retry can never store a second plan.
 */
export async function prepareStrategyPlan(
  parameters: PrepareStrategyPlanParameters,
): Promise<PlanDocument> {
  const { db, adapters, venues, opportunities, kind, request, now } = parameters;
  const opportunity = findOpportunity(opportunities, request.id);
  if (!opportunity) {
    throw new EngineError(
      'strategy_unknown',
      `${request.idField}: no strategy ${request.id}`,
      request.idField,
    );
  }
  const planId = newPlanId();
  const { feeMicros } = computePrincipalFee({ amountMicros: request.amountMicros, kind });
  const checked = checkRequest(opportunity, parameters);
  // A deposit naming its owner: the owner's guardrails (exits are never checked).
  if (kind === 'deposit' && checked.owner) {
    checked.blockers.push(
      ...(await guardrailBlockers(db, {
        wallet: checked.owner,
        chain: opportunity.chain,
        opportunity,
        amountMicros: request.amountMicros,
        amountField: 'amountMicros',
      })),
    );
  }
  let build: LegBuild = { status: 'blocked', blockers: checked.blockers };
  if (checked.blockers.length === 0 && checked.owner) {
    const legRequest = {
      planId,
      owner: checked.owner,
      amountMicros: request.amountMicros,
      target: {
        kind: 'venue' as const,
        venue: venueOnChain(venues, opportunity),
      },
    };
    const adapter = adapters[opportunity.chain];
    build =
      kind === 'deposit'
        ? await adapter.buildDeposit(legRequest)
        : await adapter.buildWithdraw(legRequest);
  }
  const parts = {
    planId,
    kind,
    chain: opportunity.chain,
    amountMicros: request.amountMicros,
    feeMicros,
    build,
    venue: {
      // SPEC: the bare venue id, whichever id (svcop…, form-…, venue) asked for the plan.
      strategyId: opportunity.venueId,
      opportunityId: opportunity.opportunityId,
      venueId: opportunity.venueId,
    },
    disclosure: {
      executionMode: opportunity.executionMode,
      writeReady: opportunity.writeReady,
      ...(checked.owner ? { owner: checked.owner } : {}),
    },
    createdAt: now,
  };
  const plan = planRecord(parts, {
    venueId: opportunity.venueId,
    owner: checked.owner ?? null,
    // Settling a venue leg moves the owner's staked balance: the ledger follows the owner.
    wallet: checked.owner ?? null,
    request: {
      id: request.id,
      amountMicros: formatMicros(request.amountMicros),
      // A malformed owner is never kept: it could be anything pasted there (a key, say).
      owner: checked.owner ?? null,
    },
    effect: kind === 'deposit' ? 'stake' : 'unstake',
  });
  const document: PlanDocument = planDocument(parts);
  const { recordWrite } = parameters;
  if (recordWrite) {
    await runLedgerTransaction(db, async (tx) => {
      await insertPlan(tx, plan);
      await recordWrite(tx, document);
    });
  } else {
    await insertPlan(db, plan);
  }
  return document;
}
