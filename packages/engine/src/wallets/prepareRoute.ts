import { computePrincipalFee } from '@yieldrouter/fees';
import { insertPlan, postJournalEntry, runLedgerTransaction } from '@yieldrouter/ledger';
import type { Prisma, PrismaClient, WriteRecorder } from '@yieldrouter/ledger';
import type { Chain, LegBuild, LegTarget, Opportunity, PlanDocument } from '@yieldrouter/schemas';
import { formatMicros, newPlanId } from '@yieldrouter/schemas';
import { blocker } from '../plans/blocker';
import type { ChainAdapters } from '../chains/chainsConfig';
import { EngineError } from '../errors';
import { planDocument, planRecord } from '../plans/planDocument';
import { byApyDesc } from '../venues/rankOpportunities';
import type { VenueConfig } from '../venues/venueConfig';
import { venueOnChain } from '../venues/venueConfig';
import { ownerOn } from './walletAddress';

/** The only token the router takes today (USDC, 6 decimals, on every chain we serve). */
export const ROUTE_TOKEN = 'USDC';

export interface RouteInput {
  readonly amountMicros: bigint;
  readonly token: string;
  readonly stake: boolean;
  readonly chain: Chain;
}

export interface RouteContext {
  readonly adapters: ChainAdapters;
  readonly venues: VenueConfig;
  /** The current listing (discovery snapshot). */
  readonly opportunities: readonly Opportunity[];
  /** The wallet's auto-yield venue, when it has one. */
  readonly autoYieldVenueId: string | null;
}

/**
 * Where a route with stake deposits: the wallet's auto-yield venue when it is set, on the route's
 * chain and ready; otherwise the best ready venue on that chain (live APY, then the 30-day mean,
 * then catalog priority). Undefined when the chain has no ready venue.
 */
export function stakeVenue(context: RouteContext, chain: Chain): Opportunity | undefined {
  const ready = context.opportunities.filter((entry) => entry.chain === chain && entry.ready);
  const chosen = ready.find((entry) => entry.venueId === context.autoYieldVenueId);
  return chosen ?? [...ready].sort(byApyDesc)[0];
}

/** Refuses input the route cannot take (400 naming the field). */
export function checkRouteInput(input: RouteInput): void {
  if (input.token.toUpperCase() !== ROUTE_TOKEN) {
    throw new EngineError(
      'BAD_REQUEST',
      `body.token: ${input.token} is not routed; the router takes ${ROUTE_TOKEN}`,
      'body.token',
    );
  }
}

export interface PrepareRouteParameters extends RouteContext {
  readonly db: PrismaClient;
  /** The wallet as named in the path. */
  readonly address: string;
  readonly input: RouteInput;
  readonly now: Date;
  /** Stores the answer with the plan, in its transaction (Idempotency-Key). */
  readonly recordWrite?: WriteRecorder<RoutePlanDocument> | undefined;
}

export type RoutePlanDocument = PlanDocument & {
  readonly wallet: string;
  readonly stake: boolean;
  readonly pendingInMicros: string;
};

/**
 * POST /wallets/{address}/route: prepares the legs that fund the router on the chain (with
 * `stake`, a deposit into the stake venue through the router), stores the plan and moves the
 * amount to the wallet's `pending_in` in the same transaction. Nothing is credited: liquid (or
 * staked) moves when the leg settles from its receipt. Fee 0. A plan that cannot be prepared is
 * returned `blocked` and moves nothing. With `recordWrite`, the answer commits with the plan: a
 * retry of the same write (same Idempotency-Key) can never store a second plan.
 */
export async function prepareRoute(parameters: PrepareRouteParameters): Promise<RoutePlanDocument> {
  const { db, adapters, input, now } = parameters;
  checkRouteInput(input);
  const owner = ownerOn(adapters, parameters.address, input.chain);
  const planId = newPlanId();
  const { feeMicros } = computePrincipalFee({ amountMicros: input.amountMicros, kind: 'route' });
  const venue = input.stake ? stakeVenue(parameters, input.chain) : undefined;
  let build: LegBuild;
  let target: LegTarget = { kind: 'router' };
  if (input.stake && !venue) {
    build = { status: 'blocked', blockers: [blocker('no_ready_venue')] };
  } else {
    if (venue) {
      target = { kind: 'venue', venue: venueOnChain(parameters.venues, venue) };
    }
    build = await adapters[input.chain].buildDeposit({
      planId,
      owner,
      amountMicros: input.amountMicros,
      target,
    });
  }
  const parts = {
    planId,
    kind: 'route' as const,
    chain: input.chain,
    amountMicros: input.amountMicros,
    feeMicros,
    build,
    venue: venue && {
      strategyId: venue.venueId,
      opportunityId: venue.opportunityId,
      venueId: venue.venueId,
    },
    disclosure: {
      owner,
      wallet: owner,
      stake: input.stake,
      pendingInMicros: formatMicros(build.status === 'prepared' ? input.amountMicros : 0n),
    },
    createdAt: now,
  };
  const document: RoutePlanDocument = planDocument(parts);
  await runLedgerTransaction(db, async (tx: Prisma.TransactionClient) => {
    await insertPlan(
      tx,
      planRecord(parts, {
        venueId: venue?.venueId ?? null,
        owner,
        wallet: owner,
        request: {
          amountMicros: formatMicros(input.amountMicros),
          token: input.token,
          stake: input.stake,
          chain: input.chain,
        },
        effect: venue ? 'fund_staked' : 'fund_liquid',
      }),
    );
    // Before the posting: the answer needs no balance lock, so the locks are held no longer.
    await parameters.recordWrite?.(tx, document);
    if (build.status === 'prepared') {
      await postJournalEntry(tx, {
        kind: 'route.prepared',
        dedupeKey: `prepare:${planId}`,
        planId,
        memo: 'routed, waiting for the owner-signed transaction to settle',
        postings: [
          {
            account: { system: 'external', chain: input.chain },
            amountMicros: -input.amountMicros,
          },
          {
            account: { wallet: owner, chain: input.chain, bucket: 'pending_in' },
            amountMicros: input.amountMicros,
          },
        ],
      });
    }
  });
  return document;
}
