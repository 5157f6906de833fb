import { defaultFeeSchedule } from '@yieldrouter/fees';
import type { FeeSchedule } from '@yieldrouter/fees';
import type { LegEffect, PlanLegInput, Prisma } from '@yieldrouter/ledger';
import type { Blocker, Chain, LegBuild } from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { storedLegs } from '../plan/legDocument';
import { storedSwapParts, swapDocumentParts } from './priceSwap';
import { prepareSwapLegs } from './quotedSwapLegs';
import { findSwapToken, resolveSwapSlippage } from './swapPlanSteps';
import type { SwapPricing } from './priceSwap';
import type { RouteSwaps } from './routeSwaps';
import type { SwapToken } from './swapQuoteSource';

/** The token every deposit ends in (the books' unit). */
const DEPOSIT_TOKEN = 'USDC';

/**
 * The token a route or deposit names, on its chain: undefined for USDC (nothing to swap), else
 * the token the chain swaps into USDC. A token the chain does not know: 400 naming `field`.
 */
export function crossAssetToken(
  swaps: RouteSwaps | undefined,
  chain: Chain,
  token: string | undefined,
  field: string,
): SwapToken | undefined {
  if (token === undefined || token.trim().toUpperCase() === DEPOSIT_TOKEN) return undefined;
  const found = findSwapToken(swaps?.tokensOn(chain) ?? [], token, field, chain);
  return found.symbol === DEPOSIT_TOKEN ? undefined : found;
}

export interface CrossAssetSwapParameters {
  readonly adapters: ChainAdapters;
  readonly swaps?: RouteSwaps | undefined;
  readonly chain: Chain;
  readonly planId: string;
  readonly owner: string;
  readonly input: SwapToken;
  /** In the input token's base units. */
  readonly amountInMicros: bigint;
  readonly slippageBps: number | undefined;
  /** The schedule's swap fee and slippage bounds; the default schedule unless given. */
  readonly schedule?: FeeSchedule | undefined;
}

/** A cross-asset plan's swap into USDC: priced (or why not) and its legs built (or why not). */
export interface CrossAssetSwap {
  readonly input: SwapToken;
  readonly output: SwapToken;
  readonly amountInMicros: bigint;
  readonly slippageBps: number;
  readonly feeRecipient: string | undefined;
  readonly pricing: SwapPricing;
  /**
   * The swap legs as the chain family builds them (EVM: approval when the allowance is short,
   * then the swap; Solana, Sui: one swap transaction), or the blockers.
   */
  readonly build: LegBuild;
  /**
   * The USDC the deposit legs deposit: the swap's minimum out, which the quote reports net of
   * every fee — what the swap guarantees. 0 when it is not priced.
   */
  readonly depositMicros: bigint;
}

/**
 * One quote for the swap of `amountInMicros` of the input into USDC on the chain, through the
 * chain's SwapQuoteSource (0x on EVM, Jupiter on Solana, Cetus on Sui), and the swap legs built
 * by the chain family's builder. Blocked (never priced by guess): no source or fee recipient
 * configured, the source unavailable, slow, answering garbage, no route, an unreadable
 * allowance or chain. A slippage outside the schedule's bound: 400 naming `body.slippageBps`.
 */
export async function prepareCrossAssetSwap(
  parameters: CrossAssetSwapParameters,
): Promise<CrossAssetSwap> {
  const { adapters, swaps, chain, planId, owner, input, amountInMicros } = parameters;
  const schedule = parameters.schedule ?? defaultFeeSchedule;
  const slippageBps = resolveSwapSlippage(parameters.slippageBps, schedule);
  const output = findSwapToken(swaps?.tokensOn(chain) ?? [], DEPOSIT_TOKEN, 'token', chain);
  const feeRecipient = swaps?.feeRecipientOn(chain);
  const { pricing, build } = await prepareSwapLegs({
    adapter: adapters[chain],
    planId,
    chain,
    source: swaps?.sourceOn(chain),
    sourceSetting: swaps?.sourceSetting(chain) ?? 'SVC_ZEROX_BASE_URL',
    input,
    output,
    amountInMicros,
    slippageBps,
    owner,
    feeRecipient,
    schedule,
  });
  return {
    input,
    output,
    amountInMicros,
    slippageBps,
    feeRecipient,
    pricing,
    build,
    depositMicros:
      build.status === 'prepared' ? (pricing.priced?.fees.minAmountOutMicros ?? 0n) : 0n,
  };
}

/** The blockers of a swap that could not be priced or built (none when it was). */
export const crossAssetBlockers = (swap: CrossAssetSwap | undefined): Blocker[] =>
  swap?.build.status === 'blocked' ? [...swap.build.blockers] : [];

/** What a cross-asset plan shows, stores and charges, once its deposit legs are built (or not). */
export interface CrossAssetPlan {
  /** Swap legs then deposit legs, or the blockers. */
  readonly build: LegBuild;
  /** The legs as stored: the swap leg settles as a swap, the deposit leg with `effect`. */
  readonly legs: PlanLegInput[];
  /** The plan document's swap parts (the quote and fee lines only when the plan is prepared). */
  readonly parts: ReturnType<typeof swapDocumentParts> & { readonly depositMicros?: string };
  /** What the swap leg's settlement reads (`plans.swap`). */
  readonly stored: Prisma.InputJsonObject;
  /** The swap's fee lines on the input (service fee and pool fee), in the input's units. */
  readonly feeMicros: bigint;
}

/**
 * Joins a cross-asset plan under one planId: the swap legs, then the deposit legs (legIndex in
 * that order). Either part blocked blocks the plan, and nothing is priced.
 */
export function joinCrossAssetPlan(
  swap: CrossAssetSwap,
  deposit: LegBuild,
  effect: LegEffect,
  venueId: string | null,
): CrossAssetPlan {
  const build: LegBuild =
    swap.build.status === 'prepared' && deposit.status === 'prepared'
      ? { status: 'prepared', legs: [...swap.build.legs, ...deposit.legs] }
      : {
          status: 'blocked',
          // The callers block the deposit legs with the swap's blockers among theirs.
          blockers: deposit.status === 'blocked' ? [...deposit.blockers] : crossAssetBlockers(swap),
        };
  const swapParts = crossAssetSwapParts(swap, build.status === 'prepared');
  return {
    build,
    legs:
      build.status === 'prepared'
        ? [...storedLegs(swap.build, 'swap', null), ...storedLegs(deposit, effect, venueId)]
        : [],
    ...swapParts,
  };
}

/**
 * What a plan with a swap leg shows (the quote and fee lines only once `prepared`: the whole
 * plan, not only its swap), stores for the swap leg's settlement, and charges on the input.
 * Shared by the cross-asset plan and the swap → bridge → deposit plan.
 */
export function crossAssetSwapParts(
  swap: CrossAssetSwap,
  prepared: boolean,
): Pick<CrossAssetPlan, 'parts' | 'stored' | 'feeMicros'> {
  const priced = prepared ? swap.pricing.priced : undefined;
  const documentParts = swapDocumentParts(
    swap.input,
    swap.output,
    swap.amountInMicros,
    swap.slippageBps,
    priced,
  );
  return {
    parts: priced
      ? { ...documentParts, depositMicros: formatMicros(swap.depositMicros) }
      : documentParts,
    stored: storedSwapParts(
      documentParts,
      { ...swap.pricing, input: swap.input, output: swap.output },
      swap.feeRecipient,
      prepared,
    ),
    feeMicros: priced ? priced.fees.feeMicros : swap.pricing.serviceFee.amountMicros,
  };
}
