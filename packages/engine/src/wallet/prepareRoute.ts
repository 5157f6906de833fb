import { computePrincipalFee } from '@yieldrouter/fees';
import type { FeeSchedule } from '@yieldrouter/fees';
import { readBalancesOf, writePlan } from '@yieldrouter/ledger';
import type {
  Books,
  JournalEntryInput,
  Prisma,
  WalletBalanceRow,
  WriteRecorder,
} from '@yieldrouter/ledger';
import type {
  Blocker,
  Chain,
  ChainChoice,
  LegBuild,
  LegTarget,
  Opportunity,
  PlanDocument,
  RiskTolerance,
  RouteGoal,
} from '@yieldrouter/schemas';
import { formatMicros, newPlanId } from '@yieldrouter/schemas';
import { guardrailBlockers } from '../guardrail/guardrailBlockers';
import type { RouteSwaps } from '../swap/routeSwaps';
import { blocker } from '../plan/blocker';
import type { ChainAdapters } from '../chains/chainsConfig';
import { EngineError } from '../errors';
import { planDocument, planRecord } from '../plan/planDocument';
import { byApyDesc } from '../venues/rankOpportunities';
import type { VenueConfig } from '../venues/venueConfig';
import { venueOnChain } from '../venues/venueConfig';
import { withLegChains } from '../bridge/crossChainDeposit';
import { joinPlanFunding, preparePlanFunding } from '../bridge/planFunding';
import type { DepositBridging, PrepareDepositBridgeParameters } from '../bridge/crossChainDeposit';
import { chooseRouteChain } from './routeChain';
import type { RouteChainRequest } from './routeChain';
import { ownerOn } from './walletAddress';
import { venueAccounts, withSimulation } from '../simulation/simulatePlan';

/** The only token the router takes today (USDC, 6 decimals, on every chain we serve). */
export const ROUTE_TOKEN = 'USDC';

export interface RouteInput extends RouteChainRequest {
  readonly amountMicros: bigint;
  readonly token: string;
  readonly stake: boolean;
  /** Accepted and kept with the plan; no effect yet (documented in the request schema). */
  readonly goal?: RouteGoal | undefined;
  readonly riskTolerance?: RiskTolerance | undefined;
  readonly autoCompound?: boolean | undefined;
  /** `true` without `sourceChain` blocks the plan (`bridge_not_available`): a route does not bridge. */
  readonly autoBridge?: boolean | undefined;
  /** Where the funds are when not on the route's chain: blocked, naming the bridge plan. */
  readonly sourceChain?: Chain | undefined;
  readonly sourceAddress?: string | undefined;
  /** The same as `autoBridge`. */
  readonly bridge?: boolean | undefined;
  /** A cross-asset route's slippage bound on its swap into USDC. */
  readonly slippageBps?: number | undefined;
}

export interface RouteContext {
  readonly adapters: ChainAdapters;
  readonly venues: VenueConfig;
  /** The current listing (discovery snapshot). */
  readonly opportunities: readonly Opportunity[];
  /** The wallet's auto-yield venue, when it has one. */
  readonly autoYieldVenueId: string | null;
  /** The wallet's auto-yield cap on staked principal per chain, when it has one. */
  readonly autoYieldMaxStakeMicros?: bigint | null | undefined;
  /** Where a route naming another token than USDC swaps it; unset: only USDC is known. */
  readonly swaps?: RouteSwaps | undefined;
  readonly schedule?: FeeSchedule | undefined;
  /** Where a route with stake and `bridge: true` bridges; unset: such a route is blocked. */
  readonly bridging?: DepositBridging | undefined;
  /** Proof that funds on another chain family are the owner's (`prepareDepositBridge`). */
  readonly ownsBoth?: PrepareDepositBridgeParameters['ownsBoth'];
}

/** The wallet's staked principal on `chain` (every venue bucket). */
export function stakedOn(rows: readonly WalletBalanceRow[], chain: Chain): bigint {
  return rows
    .filter((row) => row.chain === chain && row.bucket.startsWith('staked:'))
    .reduce((sum, row) => sum + row.balanceMicros, 0n);
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

/** Refuses a token the router does not take (400 naming `body.token`). */
export function checkRouteToken(token: string | undefined): void {
  if (token !== undefined && token.toUpperCase() !== ROUTE_TOKEN) {
    throw new EngineError(
      'BAD_REQUEST',
      `body.token: ${token} is not routed; the router takes ${ROUTE_TOKEN}`,
      'body.token',
    );
  }
}

/**
 * Why a route on `chain` cannot be prepared as asked, before any chain call: a bridge asked
 * for with no `sourceChain` (`autoBridge`), or a stake with no ready venue there.
 */
export function routeBlockers(
  input: Pick<RouteInput, 'stake' | 'autoBridge' | 'bridge' | 'sourceChain' | 'amountMicros'>,
  venue: Opportunity | undefined,
  cap: { maxStakeMicros: bigint | null | undefined; stakedMicros: bigint },
): Blocker[] {
  const blockers: Blocker[] = [];
  // With `sourceChain` the funds' chain is known: routeCrossChain names the bridge, or nothing.
  if ((input.autoBridge || input.bridge) && input.sourceChain === undefined)
    blockers.push(blocker('bridge_not_available', { field: 'body.autoBridge' }));
  if (input.stake && !venue) blockers.push(blocker('no_ready_venue'));
  const { maxStakeMicros, stakedMicros } = cap;
  if (input.stake && maxStakeMicros && stakedMicros + input.amountMicros > maxStakeMicros) {
    blockers.push(
      blocker('auto_yield_cap_reached', {
        field: 'body.amountMicros',
        details: {
          maxStakeMicros: formatMicros(maxStakeMicros),
          stakedMicros: formatMicros(stakedMicros),
        },
      }),
    );
  }
  return blockers;
}

/** The request fields kept with a route plan: what was asked, as sent. */
function routeRequestRecord(input: RouteInput, chain: Chain): Prisma.InputJsonObject {
  const { amountMicros, goal, riskTolerance, preferredChains, autoCompound, autoBridge } = input;
  const asked = {
    goal,
    riskTolerance,
    preferredChains,
    autoCompound,
    autoBridge,
    sourceChain: input.sourceChain,
    sourceAddress: input.sourceAddress,
    bridge: input.bridge,
    slippageBps: input.slippageBps,
  };
  return {
    amountMicros: formatMicros(amountMicros),
    token: input.token,
    stake: input.stake,
    chain,
    ...(Object.fromEntries(
      Object.entries(asked).filter(([, value]) => value !== undefined),
    ) as Prisma.InputJsonObject),
  };
}

export interface PrepareRouteParameters extends RouteContext {
  readonly db: Books;
  /** The wallet as named in the path. */
  readonly address: string;
  readonly input: RouteInput;
  readonly now: Date;
  /** Stores the answer with the plan, in its transaction (Idempotency-Key). */
  readonly recordWrite?: WriteRecorder<RoutePlanDocument> | undefined;
}

export type RoutePlanDocument = PlanDocument & {
  readonly wallet: string;
  readonly chainChosenBy: ChainChoice;
  readonly stake: boolean;
  readonly pendingInMicros: string;
};

/**
 * POST /wallets/{address}/route: prepares the legs that fund liquid on the chain (Solana: into
 * our router program; Sui: a proof that the owner's wallet holds it, which calls no package;
 * with `stake`, a deposit into the stake venue instead), stores the plan and moves the
 * amount to the wallet's `pending_in` in the same transaction. Nothing is credited: liquid (or
 * staked) moves when the leg settles from its receipt. Fee 0. A plan that cannot be prepared is
 * returned `blocked` and moves nothing. With `recordWrite`, the answer commits with the plan: a
 * retry of the same write (same Idempotency-Key) can never store a second plan.
 *
 * Cross-asset (a `token` other than USDC the chain swaps): one quote through the chain's swap
 * source; the swap legs come first, then the deposit legs, under the same planId. What is
 * deposited and reserved is the swap's minimum out (net of every fee: what it guarantees), so
 * the cost basis is net of the swap's cost and the fill above the minimum stays liquid in the
 * owner's wallet; the guardrails and the stake cap check that amount. No source, no quote, an
 * unknown price: `blocked` with the reason, nothing reserved.
 *
 * Cross-chain (`sourceChain` other than the route's chain): without `bridge` / `autoBridge`,
 * or without `stake`, `blocked` with `bridge_required`, whose details name the bridge plan to
 * run first (its route and exact body); nothing is quoted or reserved. With both: one plan, as a
 * deposit plan with `bridge: true` makes it — the bridge legs on the source chain, then the
 * stake venue's deposit legs for the bridge's minReceivedMicros (effect `bridged_stake`: they
 * take what the delivery credits, so nothing is reserved). With a `token` other than USDC,
 * the swap legs into USDC on the source chain come first and the bridge takes the swap's
 * minAmountOut (its burn waits for the swap leg to settle: 409 SWAP_NOT_SETTLED before).
 */
export async function prepareRoute(parameters: PrepareRouteParameters): Promise<RoutePlanDocument> {
  const { db, adapters, input, now } = parameters;
  const { chain, chainChosenBy } = chooseRouteChain(
    adapters,
    parameters.opportunities,
    parameters.address,
    input,
  );
  const owner = ownerOn(adapters, parameters.address, chain);
  const planId = newPlanId();
  const venue = input.stake ? stakeVenue(parameters, chain) : undefined;
  // Funds on another chain: with stake and `bridge` (or `autoBridge`) the bridge legs come first,
  // under this planId; otherwise blocked, naming the bridge plan to run first. Another token than
  // USDC: swapped into USDC first (400 when unknown), on the chain the funds are on.
  const funding = await preparePlanFunding({
    ...parameters,
    chain,
    owner,
    planId,
    crossChain: input,
    bridgeAsked: input.stake && (input.bridge === true || input.autoBridge === true),
    token: input.token,
    amountMicros: input.amountMicros,
    slippageBps: input.slippageBps,
    sourceChainField: 'body.sourceChain',
    // A stake with no ready venue quotes and bridges nothing; nor does `autoBridge` with no
    // `sourceChain` (blocked: bridge_not_available). With the funds on the route's chain,
    // `autoBridge` is ignored (documented): the swap is quoted as without it.
    ready: (venue !== undefined || !input.stake) && !(input.autoBridge && !input.sourceChain),
  });
  const { depositMicros } = funding;
  const { feeMicros } = computePrincipalFee({ amountMicros: depositMicros, kind: 'route' });
  const maxStakeMicros = parameters.autoYieldMaxStakeMicros;
  const stakedMicros =
    input.stake && maxStakeMicros ? stakedOn(await readBalancesOf(db, [owner]), chain) : 0n;
  const blockers = [
    ...routeBlockers({ ...input, amountMicros: depositMicros }, venue, {
      maxStakeMicros,
      stakedMicros,
    }),
    ...funding.blockers,
    // The owner's guardrails on what is deposited: the chain, and with stake the venue, amount
    // and APY (a swap not priced: no amount to check yet). Funds on another chain not bridged
    // are checked too, as a deposit plan checks them: a deposit the guardrails refuse is named
    // with the bridge, before the owner pays the bridge's fees for it.
    ...(!funding.priced
      ? []
      : await guardrailBlockers(db, {
          wallet: owner,
          chain,
          opportunity: venue,
          amountMicros: depositMicros,
          amountField: 'body.amountMicros',
        })),
  ];
  let deposit: LegBuild;
  let target: LegTarget = { kind: 'router' };
  if (blockers.length > 0) {
    deposit = { status: 'blocked', blockers };
  } else {
    if (venue) {
      target = { kind: 'venue', venue: venueOnChain(parameters.venues, venue) };
    }
    deposit = await adapters[chain].buildDeposit({
      planId,
      owner,
      amountMicros: depositMicros,
      target,
    });
  }
  const effect = venue ? 'fund_staked' : 'fund_liquid';
  const venueId = venue?.venueId ?? null;
  // Cross-chain: the deposit legs take what the delivery credits (nothing is reserved).
  const joined = joinPlanFunding(funding, deposit, { chain, venueId, effect, feeMicros });
  const { build } = joined;
  const reservedMicros = build.status === 'prepared' && !joined.crossChain ? depositMicros : 0n;
  const parts = {
    planId,
    kind: 'route' as const,
    chain,
    amountMicros: input.amountMicros,
    feeMicros: joined.feeMicros,
    build,
    venue: venue && {
      strategyId: venue.venueId,
      opportunityId: venue.opportunityId,
      venueId: venue.venueId,
    },
    disclosure: {
      owner,
      wallet: owner,
      chainChosenBy,
      stake: input.stake,
      pendingInMicros: formatMicros(reservedMicros),
      ...joined.parts,
    },
    createdAt: now,
  };
  // Issue 44: the legs simulated on their chain, stored with the plan and shown in its answer.
  const { plan, document } = await withSimulation(
    adapters,
    {
      plan: planRecord(parts, {
        venueId,
        owner,
        wallet: owner,
        request: routeRequestRecord(input, chain),
        effect,
        ...joined.storage,
      }),
      document: withLegChains(planDocument(parts), joined.legChains) as RoutePlanDocument,
    },
    {
      venue: venueAccounts(venue ? venueOnChain(parameters.venues, venue) : undefined),
      treasury: [],
    },
  );
  const entry: JournalEntryInput | undefined =
    reservedMicros > 0n
      ? {
          kind: 'route.prepared',
          dedupeKey: `prepare:${planId}`,
          planId,
          memo: 'routed, waiting for the owner-signed transaction to settle',
          postings: [
            { account: { system: 'external', chain }, amountMicros: -reservedMicros },
            {
              account: { wallet: owner, chain, bucket: 'pending_in' },
              amountMicros: reservedMicros,
            },
          ],
        }
      : undefined;
  // One statement on the driver: the plan, the call's records and the reservation (0063).
  const recorded = parameters.recordWrite?.rows(document);
  await writePlan(db.sql, { plan, entry, recorded });
  recorded?.committed();
  return document;
}
