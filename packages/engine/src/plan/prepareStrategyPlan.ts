import { computePrincipalFee } from '@yieldrouter/fees';
import type { FeeSchedule } from '@yieldrouter/fees';
import { insertPlan } from '@yieldrouter/ledger';
import type { Books, WriteRecorder } from '@yieldrouter/ledger';
import type { Blocker, LegBuild, Opportunity, PlanDocument } from '@yieldrouter/schemas';
import { formatMicros, newPlanId } from '@yieldrouter/schemas';
import { blocker } from './blocker';
import type { ChainAdapters } from '../chains/chainsConfig';
import { guardrailBlockers } from '../guardrail/guardrailBlockers';
import { EngineError } from '../errors';
import type { RouteSwaps } from '../swap/routeSwaps';
import { findOpportunity } from '../venues/listOpportunities';
import type { VenueConfig } from '../venues/venueConfig';
import { venueOnChain } from '../venues/venueConfig';
import { storePlan } from './storePlan';
import { venueAccounts, withSimulation } from '../simulation/simulatePlan';
import { planDocument, planRecord } from './planDocument';
import { inlineSkimOf, planWithdrawSkim, skimDisclosure, skimmedLegs } from './withdrawSkim';
import type { Treasuries, WithdrawSkim } from './withdrawSkim';
import type { CrossChainRequest } from '../bridge/crossChainSource';
import { withLegChains } from '../bridge/crossChainDeposit';
import { joinPlanFunding, preparePlanFunding } from '../bridge/planFunding';
import type { DepositBridging, PrepareDepositBridgeParameters } from '../bridge/crossChainDeposit';

export interface PrepareStrategyPlanRequest {
  /** The id as given (opportunity id, bare venue id or form- alias) and where it came from. */
  readonly id: string;
  readonly idField: string;
  readonly amountMicros: bigint;
  readonly owner: string | undefined;
  /** Deposits: USDC (the default) or a token the venue's chain swaps into USDC first. */
  readonly token?: string | undefined;
  readonly slippageBps?: number | undefined;
  /** Deposits: where the funds are when not on the venue's chain, and whether to bridge. */
  readonly crossChain?: CrossChainRequest | undefined;
  /**
   * Withdrawals: a harvest with `execute: true` — the venue pays the yield above the owner's
   * staked balance and the protocol's claim goes to the treasury (`planWithdrawSkim`).
   */
  readonly realiseYield?: boolean | undefined;
}

export interface PrepareStrategyPlanParameters {
  readonly db: Books;
  readonly adapters: ChainAdapters;
  readonly venues: VenueConfig;
  /** The current listing (the discovery snapshot): readiness and ids come from configuration. */
  readonly opportunities: readonly Opportunity[];
  readonly kind: 'deposit' | 'withdraw';
  readonly request: PrepareStrategyPlanRequest;
  readonly now: Date;
  /** Stores the answer with the plan, in one transaction (Idempotency-Key). */
  readonly recordWrite?: WriteRecorder<PlanDocument> | undefined;
  /** Where a deposit naming another token than USDC swaps it; unset: only USDC is known. */
  readonly swaps?: RouteSwaps | undefined;
  readonly schedule?: FeeSchedule | undefined;
  /** Where a deposit with `bridge: true` bridges; unset: such a deposit is blocked. */
  readonly bridging?: DepositBridging | undefined;
  /** Proof that funds on another chain family are the owner's (`prepareDepositBridge`). */
  readonly ownsBoth?: PrepareDepositBridgeParameters['ownsBoth'];
  /** Withdrawals where the owner holds the receipts pay the skim to the chain's treasury. */
  readonly treasuries?: Treasuries | undefined;
}

function checkRequest(
  opportunity: Opportunity,
  { request, adapters }: PrepareStrategyPlanParameters,
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
  return { owner, blockers };
}

/** A deposit of less USDC than the venue takes (for a cross-asset deposit: the swap's minimum). */
const belowMinimum = (opportunity: Opportunity, depositMicros: bigint): Blocker[] =>
  depositMicros < BigInt(opportunity.minDepositMicros)
    ? [
        blocker('amount_below_minimum', {
          field: 'amountMicros',
          details: { minimumMicros: opportunity.minDepositMicros },
        }),
      ]
    : [];

/**
 * Prepares (or blocks) a deposit into / withdrawal from one venue, and stores the plan. Every
 * venue answers with the same shape: `prepared` with unsigned owner-sign legs built by the
 * chain adapter, or `blocked` with catalog blockers. Blocked is a result (HTTP 200), not an
 * error; only an unknown id is an error (404 `strategy_unknown`). With `recordWrite`, the answer
 * commits with the plan (Idempotency-Key): a retry can never store a second plan.
 *
 * Cross-chain (`sourceChain` other than the venue's): without `bridge`, `blocked` with
 * `bridge_required` naming the bridge plan to run first. With `bridge: true`, one plan: the
 * bridge legs on the source chain (fee transfer, approval, burn: the bridge plan's own, with its
 * refusals and blockers), then the deposit legs on the venue's chain for the bridge's
 * minReceivedMicros — the cost basis, net of the bridge and rail fees; they settle (effect
 * `bridged_stake`) from liquid, only after the bridge's delivery credited it. With a `token`
 * other than USDC the source chain swaps, the swap legs into USDC come first (on the source
 * chain) and the bridge takes the swap's minAmountOut; its burn waits for the swap leg to
 * settle (409 SWAP_NOT_SETTLED before). The swap blocked: the plan is, nothing priced after it.
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
  const checked = checkRequest(opportunity, parameters);
  const chain = opportunity.chain;
  // Funds on another chain: never bridged silently (blocked, naming the bridge plan to run);
  // with `bridge: true` the bridge legs come first (after a swap into USDC there), under this
  // planId, and what the bridge delivers at least is deposited. A deposit of another token than
  // USDC: swapped into USDC first (400 if unknown), on the chain the funds are on.
  const deposit = kind === 'deposit';
  const funding = await preparePlanFunding({
    ...parameters,
    chain,
    owner: checked.owner,
    planId,
    crossChain: deposit ? request.crossChain : undefined,
    bridgeAsked: request.crossChain?.bridge === true,
    token: deposit ? request.token : undefined,
    amountMicros: request.amountMicros,
    slippageBps: request.slippageBps,
    sourceChainField: 'sourceChain',
    ready: checked.blockers.length === 0,
  });
  const { bridgeFirst, bridging, swapFrom, depositMicros } = funding;
  checked.blockers.push(...funding.blockers);
  const { feeMicros } = computePrincipalFee({ amountMicros: depositMicros, kind });
  if (deposit && funding.priced) {
    checked.blockers.push(...belowMinimum(opportunity, depositMicros));
  }
  // A deposit naming its owner: the owner's guardrails on what is deposited (exits are never
  // checked; a swap not priced has no amount to check yet).
  if (deposit && checked.owner && funding.priced) {
    checked.blockers.push(
      ...(await guardrailBlockers(db, {
        wallet: checked.owner,
        chain,
        opportunity,
        amountMicros: depositMicros,
        amountField: 'amountMicros',
      })),
    );
  }
  let legs: LegBuild = { status: 'blocked', blockers: checked.blockers };
  let withdrawSkim: WithdrawSkim | undefined;
  if (checked.blockers.length === 0 && checked.owner) {
    const venue = venueOnChain(venues, opportunity);
    withdrawSkim = deposit
      ? undefined
      : await planWithdrawSkim({
          ...parameters,
          opportunity,
          venue,
          owner: checked.owner,
          amountMicros: depositMicros,
          realiseYield: request.realiseYield,
        });
    const legRequest = {
      planId,
      owner: checked.owner,
      amountMicros: withdrawSkim?.grossMicros ?? depositMicros,
      target: { kind: 'venue' as const, venue },
      ...(withdrawSkim?.skim ? { skim: withdrawSkim.skim } : {}),
    };
    const adapter = adapters[chain];
    legs = deposit
      ? await adapter.buildDeposit(legRequest)
      : await adapter.buildWithdraw(legRequest);
  }
  const effect = deposit ? 'stake' : 'unstake';
  const joined = joinPlanFunding(funding, legs, {
    chain,
    venueId: opportunity.venueId,
    effect,
    feeMicros,
  });
  const { build } = joined;
  const parts = {
    planId,
    kind,
    chain: opportunity.chain,
    amountMicros: request.amountMicros,
    feeMicros: joined.feeMicros,
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
      ...joined.parts,
      ...skimDisclosure(withdrawSkim, build),
    },
    createdAt: now,
  };
  const record = planRecord(parts, {
    venueId: opportunity.venueId,
    owner: checked.owner ?? null,
    // Settling a venue leg moves the owner's staked balance: the ledger follows the owner.
    wallet: checked.owner ?? null,
    request: {
      id: request.id,
      amountMicros: formatMicros(request.amountMicros),
      // A malformed owner is never kept: it could be anything pasted there (a key, say).
      owner: checked.owner ?? null,
      ...(swapFrom ? { token: swapFrom.symbol } : {}),
      ...(request.slippageBps === undefined ? {} : { slippageBps: request.slippageBps }),
      ...(request.realiseYield ? { realiseYield: true } : {}),
      ...(withdrawSkim?.stored ? { skim: withdrawSkim.stored } : {}),
      ...(bridgeFirst
        ? {
            sourceChain: bridgeFirst.sourceChain,
            sourceAddress: bridgeFirst.sourceAddress,
            bridge: bridging,
          }
        : {}),
    },
    effect,
    ...joined.storage,
    ...(withdrawSkim?.stored ? { legs: skimmedLegs(build, 'unstake', opportunity.venueId) } : {}),
  });
  // Issue 44: the legs simulated on their chain, stored with the plan and shown in its answer.
  const { plan, document } = await withSimulation(
    adapters,
    {
      plan: record,
      document: withLegChains(planDocument(parts), joined.legChains) as PlanDocument,
    },
    {
      venue: venueAccounts(venueOnChain(venues, opportunity)),
      treasury: withdrawSkim?.stored ? [withdrawSkim.stored.recipient] : [],
      // The skim the withdraw leg pays inside its own transaction: the Solana router's, or the
      // one a Sui withdrawal splits off (an EVM skim is a leg of its own, judged as a transfer).
      legSkims: inlineSkimOf(withdrawSkim, record.legs),
    },
  );
  // A cross-chain deposit stores what it bridges with it (one statement).
  const { recordWrite } = parameters;
  if (recordWrite) {
    await db.transaction(async (tx) => {
      await insertPlan(tx, plan);
      await recordWrite(tx, document);
    });
  } else {
    await storePlan(parameters, plan);
  }
  return document;
}
