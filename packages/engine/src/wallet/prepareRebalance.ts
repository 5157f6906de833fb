import { computePrincipalFee, defaultFeeSchedule } from '@yieldrouter/fees';
import type { FeeSchedule } from '@yieldrouter/fees';
import { insertPlan, readBalancesOf } from '@yieldrouter/ledger';
import { venueAccounts, withSimulation } from '../simulation/simulatePlan';
import type { Books, WriteRecorder } from '@yieldrouter/ledger';
import type {
  Blocker,
  Chain,
  LegBuild,
  Opportunity,
  RebalancePlanDocument,
} from '@yieldrouter/schemas';
import { formatMicros, newPlanId } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { EngineError } from '../errors';
import { guardrailBlockers, stakedBalances } from '../guardrail/guardrailBlockers';
import { blocker } from '../plan/blocker';
import { storedLegs } from '../plan/legDocument';
import { planDocument, planRecord } from '../plan/planDocument';
import { findOpportunity } from '../venues/listOpportunities';
import type { VenueConfig } from '../venues/venueConfig';
import { venueOnChain } from '../venues/venueConfig';
import { ROUTE_TOKEN } from './prepareRoute';
import { ownerOn } from './walletAddress';
import { ownerHoldsReceipts } from './skimBooking';
import { inlineSkimOf, planWithdrawSkim, skimDisclosure, skimmedLegs } from '../plan/withdrawSkim';
import type { Treasuries, WithdrawSkim } from '../plan/withdrawSkim';

/** What a rebalance is prepared with: the books, the chains and the current listing. */
export interface RebalanceDeps {
  /** The books, or a transaction to prepare in (the autopilot's tick, which locks its policy). */
  readonly db: Books;
  readonly adapters: ChainAdapters;
  readonly venues: VenueConfig;
  /** The current listing (discovery snapshot): readiness, ids and APY. */
  readonly opportunities: readonly Opportunity[];
  /** The fee schedule (its principal entry); the published one when not given. */
  readonly schedule?: FeeSchedule;
  /** Where the owner holds the receipts, the withdraw leg pays the skim to the chain's treasury. */
  readonly treasuries?: Treasuries | undefined;
}

/** One rebalance: which wallet, from where to where, how much. */
export interface PrepareRebalanceRequest {
  /** The wallet, as the path names it (an address of the opportunities' chain). */
  readonly wallet: string;
  /** Opportunity id, bare venue id or form- alias. */
  readonly fromOpportunityId: string;
  readonly toOpportunityId: string;
  /** Micros, or the whole staked balance in `fromOpportunityId` now. */
  readonly amount: bigint | 'all';
  /** When given, it must be the opportunities' chain. */
  readonly chain?: Chain | undefined;
  readonly now: Date;
  /** Stores the answer with the plan, in its transaction (audit trail, Idempotency-Key). */
  readonly recordWrite?: WriteRecorder<RebalancePlanDocument> | undefined;
}

function opportunityOf(opportunities: readonly Opportunity[], id: string, field: string) {
  const found = findOpportunity(opportunities, id);
  if (!found) throw new EngineError('strategy_unknown', `${field}: no opportunity ${id}`, field);
  return found;
}

/** The request's refusals (4xx, nothing stored), in the order a caller fixes them. */
function checkPair(opportunities: readonly Opportunity[], parameters: PrepareRebalanceRequest) {
  const from = opportunityOf(opportunities, parameters.fromOpportunityId, 'body.fromOpportunityId');
  const to = opportunityOf(opportunities, parameters.toOpportunityId, 'body.toOpportunityId');
  if (from.opportunityId === to.opportunityId) {
    throw new EngineError(
      'BAD_REQUEST',
      `body.toOpportunityId: ${to.opportunityId} is where the money already is; name another opportunity`,
      'body.toOpportunityId',
    );
  }
  if (from.chain !== to.chain) {
    throw new EngineError(
      'CROSS_CHAIN_REBALANCE',
      `body.toOpportunityId: ${to.venueId} is on ${to.chain}, ${from.venueId} on ${from.chain}; a ` +
        'rebalance stays on one chain: move the funds with a bridge plan (POST ' +
        '/api/v1/svc/bridge/plan), then deposit on the destination chain',
      'body.toOpportunityId',
    );
  }
  if (parameters.chain !== undefined && parameters.chain !== from.chain) {
    throw new EngineError(
      'BAD_REQUEST',
      `body.chain: both opportunities are on ${from.chain}, not ${parameters.chain}`,
      'body.chain',
    );
  }
  return { from, to, chain: from.chain };
}

/** Why either venue cannot take its leg now (the catalog's blockers, as deposit plans give). */
function venueBlockers(venue: Opportunity, side: 'from' | 'to', amount: bigint): Blocker[] {
  const blockers: Blocker[] = [];
  const field = `body.${side}OpportunityId`;
  if (venue.readiness !== 'ready') {
    blockers.push(blocker('venue_not_ready', { field, details: { readiness: venue.readiness } }));
  }
  if (venue.missingIds.length > 0) {
    blockers.push(
      blocker('venue_not_configured', {
        field: `SVC_VENUE_IDS.${venue.venueId}`,
        details: { missing: venue.missingIds.join(',') },
      }),
    );
  }
  if (side === 'to' && amount < BigInt(venue.minDepositMicros)) {
    blockers.push(
      blocker('amount_below_minimum', {
        field: 'body.amountMicros',
        details: { minimumMicros: venue.minDepositMicros },
      }),
    );
  }
  return blockers;
}

/**
 * The withdraw plan's skim on a rebalance's withdraw leg where the owner holds the receipts (Sui,
 * plain EVM venues; issue #46): the venue pays the amount grossed up and the yield part's skim
 * goes to the chain's treasury, so `to` receives what the plan says. `all` takes the whole
 * position: the protocol's whole claim to the treasury, the rest of it to `to`. Solana's router
 * takes its own skim; a `from` that cannot take its leg asks none.
 */
async function rebalanceSkim(
  deps: RebalanceDeps,
  parameters: PrepareRebalanceRequest,
  side: { from: Opportunity; owner: string; amount: bigint; fromBlockers: readonly Blocker[] },
): Promise<WithdrawSkim | undefined> {
  const { from, owner, amount } = side;
  if (!ownerHoldsReceipts(from.chain) || side.fromBlockers.length > 0) return undefined;
  return planWithdrawSkim({
    ...deps,
    opportunity: from,
    venue: venueOnChain(deps.venues, from),
    owner,
    amountMicros: amount,
    everything: parameters.amount === 'all',
  });
}

/**
 * POST /wallets/{address}/rebalance, and the autopilot's switch: one plan on one chain, the
 * owner-signed withdraw leg out of `from` (index 0) and the deposit leg into `to` (after it;
 * an EVM deposit's approval leg comes first). Fee 0 on principal (the published schedule's
 * principal entry, as a fee line). Nothing moves on the books now: the withdraw leg's receipt
 * moves staked:<from> → pending_in, the deposit leg's pending_in → staked:<to>.
 *
 * Refused with a 4xx and nothing stored: an unknown opportunity (404 `strategy_unknown`), the
 * same one twice (400), two chains (422 `CROSS_CHAIN_REBALANCE`, naming the bridge plan), more
 * than is staked in `from` or nothing staked (422 `INSUFFICIENT_STAKED`). Stored `blocked`:
 * venues not ready or configured, an amount below `to`'s minimum, the wallet's guardrails on
 * `to` (`guardrail_*`). Returns the stored plan document.
 *
 * @example
 * await prepareRebalance({ db, adapters, venues, opportunities },
 *   { wallet, fromOpportunityId: 'kamino', toOpportunityId: 'save', amount: 'all', now })
 */
export async function prepareRebalance(
  deps: RebalanceDeps,
  parameters: PrepareRebalanceRequest,
): Promise<RebalancePlanDocument> {
  const { db, adapters } = deps;
  const { now } = parameters;
  const schedule = deps.schedule ?? defaultFeeSchedule;
  const { from, to, chain } = checkPair(deps.opportunities, parameters);
  const owner = ownerOn(adapters, parameters.wallet, chain);
  const staked = stakedBalances(await readBalancesOf(db, [owner]), chain, from.opportunityId);
  const amount = parameters.amount === 'all' ? staked.inOpportunity : parameters.amount;
  if (amount <= 0n || amount > staked.inOpportunity) {
    throw new EngineError(
      amount <= 0n && parameters.amount !== 'all' ? 'BAD_REQUEST' : 'INSUFFICIENT_STAKED',
      `body.amountMicros: ${formatMicros(amount < 0n ? 0n : amount)} to move, ` +
        `${formatMicros(staked.inOpportunity)} staked in ${from.venueId}`,
      'body.amountMicros',
    );
  }
  const planId = newPlanId();
  const fromBlockers = venueBlockers(from, 'from', amount);
  const skim = await rebalanceSkim(deps, parameters, { from, owner, amount, fromBlockers });
  // What `to` receives: the amount asked (grossed up by the skim), or all of the owner's share.
  const moved = skim?.netMicros ?? amount;
  const { feeMicros } = computePrincipalFee({ amountMicros: moved, kind: 'rebalance', schedule });
  const blockers = [
    ...fromBlockers,
    ...venueBlockers(to, 'to', moved),
    ...(await guardrailBlockers(db, {
      wallet: owner,
      chain,
      opportunity: to,
      amountMicros: moved,
      leavingOnChainMicros: moved,
      amountField: 'body.amountMicros',
      schedule,
    })),
  ];
  let out: LegBuild = { status: 'blocked', blockers };
  let into: LegBuild = out;
  if (blockers.length === 0) {
    const leg = (venue: Opportunity, amountMicros: bigint) => ({
      planId,
      owner,
      amountMicros,
      target: { kind: 'venue' as const, venue: venueOnChain(deps.venues, venue) },
    });
    [out, into] = await Promise.all([
      adapters[chain].buildWithdraw({
        ...leg(from, skim?.grossMicros ?? amount),
        ...(skim?.skim ? { skim: skim.skim } : {}),
      }),
      adapters[chain].buildDeposit(leg(to, moved)),
    ]);
  }
  const build: LegBuild =
    out.status === 'prepared' && into.status === 'prepared'
      ? { status: 'prepared', legs: [...out.legs, ...into.legs] }
      : {
          status: 'blocked',
          blockers: [
            ...(out.status === 'blocked' ? out.blockers : []),
            ...(into.status === 'blocked' && into !== out ? into.blockers : []),
          ],
        };
  const parts = {
    planId,
    kind: 'rebalance' as const,
    chain,
    amountMicros: moved,
    feeMicros,
    build,
    disclosure: {
      owner,
      wallet: owner,
      fromOpportunityId: from.opportunityId,
      toOpportunityId: to.opportunityId,
      fromVenueId: from.venueId,
      toVenueId: to.venueId,
      feeLines: [
        {
          kind: 'principal_fee' as const,
          bps: schedule.principalFeeBps,
          amountMicros: formatMicros(feeMicros),
          token: ROUTE_TOKEN,
          payer: 'owner' as const,
        },
      ],
      withinChainOnly: true as const,
      ...skimDisclosure(skim, build),
    },
    createdAt: now,
  };
  const document: RebalancePlanDocument = planDocument(parts);
  const record = planRecord(parts, {
    venueId: from.venueId,
    owner,
    wallet: owner,
    request: {
      fromOpportunityId: from.opportunityId,
      toOpportunityId: to.opportunityId,
      amountMicros: parameters.amount === 'all' ? 'all' : formatMicros(amount),
      chain,
      ...(skim?.stored ? { skim: skim.stored } : {}),
    },
    effect: 'rebalance_out',
  });
  // Each leg settles its own side: out of `from`, into `to`.
  const legs =
    out.status === 'prepared' && into.status === 'prepared'
      ? [
          ...(skim?.stored
            ? skimmedLegs(out, 'rebalance_out', from.venueId)
            : storedLegs(out, 'rebalance_out', from.venueId)),
          ...storedLegs(into, 'rebalance_in', to.venueId),
        ]
      : [];
  // Issue 44: both venues' legs simulated in order, stored with the plan, shown in its answer.
  const simulated = await withSimulation(
    adapters,
    { plan: { ...record, legs }, document },
    {
      venue: [from, to].flatMap((venue) => venueAccounts(venueOnChain(deps.venues, venue))),
      treasury: skim?.stored ? [skim.stored.recipient] : [],
      // The skim the withdraw leg pays inside its own transaction (Sui, the Solana router).
      legSkims: inlineSkimOf(skim, legs),
    },
  );
  const store = async (tx: Books) => {
    await insertPlan(tx, simulated.plan);
    await parameters.recordWrite?.(tx, simulated.document);
  };
  // Inside the tick's transaction, it joins it.
  await db.transaction(store);
  return simulated.document;
}
