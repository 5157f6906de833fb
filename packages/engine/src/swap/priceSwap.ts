import { bpsOf } from '@yieldrouter/fees';
import type { FeeSchedule } from '@yieldrouter/fees';
import type {
  AllowanceReading,
  Blocker,
  Chain,
  ChainAdapter,
  LegBuild,
} from '@yieldrouter/schemas';
import { formatUnits } from '@yieldrouter/schemas';
import { blocker } from '../plan/blocker';
import { swapTargetOf } from './swapQuoteSource';
import type { EvmSwapQuote, SwapQuote, SwapQuoteSource, SwapToken } from './swapQuoteSource';
import { quoteSwapPlan, sourceBlocker, swapPlanParts } from './swapPlanSteps';
import type { SwapPlanFees } from './swapPlanSteps';

/** A quote source's unavailability as a plan blocker (the source named, nothing priced). */
export const quoteBlocker = (
  status: 'quote_unavailable' | 'quote_timeout' | 'no_route',
  detail: string,
  source = '0x',
) => sourceBlocker(source, status, detail);

export interface PriceSwapParameters<Quote extends SwapQuote = SwapQuote> {
  readonly chain: Chain;
  readonly source: SwapQuoteSource<Quote> | undefined;
  /** The setting a plan without a source names (e.g. `SVC_ZEROX_BASE_URL`). */
  readonly sourceSetting: string;
  readonly input: SwapToken;
  readonly output: SwapToken;
  readonly amountInMicros: bigint;
  readonly slippageBps: number;
  readonly owner: string;
  /** Where the service's swap fee is paid on the chain; unset blocks a fee-charging swap. */
  readonly feeRecipient: string | undefined;
  readonly schedule: FeeSchedule;
}

/** A quote (of any chain family) and the fee lines and bounds computed from it. */
export interface PricedSwap<Quote extends SwapQuote = SwapQuote> {
  readonly quote: Quote;
  readonly fees: SwapPlanFees;
}

export interface SwapPricing<Quote extends SwapQuote = SwapQuote> {
  /** Empty when priced. */
  readonly blockers: Blocker[];
  readonly priced: PricedSwap<Quote> | undefined;
  /** The service's swap fee on the input (from the schedule), priced or not. */
  readonly serviceFee: { readonly bps: number; readonly amountMicros: bigint };
}

/**
 * One quote from the chain's source, its fee lines (packages/fees) and its slippage bound; or
 * the blockers why there is none: no source or fee recipient configured, the source unavailable,
 * slow or answering garbage, no route, amounts out of range, a quote whose own minimum is looser
 * than the plan's bound. Never a made-up price. The same steps as a swap plan's (quoteSwapPlan).
 */
export async function priceSwap<Quote extends SwapQuote>(
  parameters: PriceSwapParameters<Quote>,
): Promise<SwapPricing<Quote>> {
  const { chain, amountInMicros, schedule } = parameters;
  const serviceFee = {
    bps: schedule.swapFeeBps,
    amountMicros: bpsOf(amountInMicros, schedule.swapFeeBps),
  };
  const { blockers, priced } = await quoteSwapPlan(
    { ...parameters, serviceFee },
    parameters.source,
    {
      source: parameters.sourceSetting,
      feeRecipient: `SVC_${chain.toUpperCase()}_SWAP_FEE_RECIPIENT`,
    },
  );
  return { blockers, priced, serviceFee };
}

/** What builds the owner-signed legs of a priced swap, whatever the chain family. */
export interface QuotedSwapLegParameters<Quote extends SwapQuote = SwapQuote> {
  readonly adapter: ChainAdapter;
  readonly chain: Chain;
  readonly planId: string;
  readonly owner: string;
  readonly input: SwapToken;
  readonly output: SwapToken;
  /** What the owner spends, the service fee included. */
  readonly amountInMicros: bigint;
  readonly priced: PricedSwap<Quote>;
  /** The service fee on the input (Solana and Sui pay it inside the swap's transaction). */
  readonly serviceFee: { readonly amountMicros: bigint };
  /** Where it is paid; undefined when not configured (then no fee is charged in the leg). */
  readonly feeRecipient: string | undefined;
}

/** The owner's allowance as the quote reported it, else as read on chain (fail-closed). */
async function ownerAllowance(
  adapter: ChainAdapter,
  token: string,
  owner: string,
  quote: EvmSwapQuote,
): Promise<AllowanceReading | undefined> {
  if (quote.takerAllowance !== undefined) {
    return { status: 'ok', allowance: quote.takerAllowance };
  }
  return adapter.readAllowance?.({ token, owner, spender: quote.allowanceTarget });
}

/**
 * The owner-signed legs of a priced swap: an approval when the allowance is short (as the quote
 * source reported it, or read on chain), then the quote's call. An unreadable allowance (or a
 * chain without swap legs) blocks.
 */
export async function buildSwapLegs(
  parameters: QuotedSwapLegParameters<EvmSwapQuote>,
): Promise<LegBuild> {
  const { adapter, chain, owner, input, output, amountInMicros, priced } = parameters;
  const { quote, fees } = priced;
  const allowance = await ownerAllowance(adapter, input.address, owner, quote);
  if (!allowance || allowance.status !== 'ok' || !adapter.buildSwap) {
    const detail = allowance?.status === 'unavailable' ? allowance.detail : 'no allowance reader';
    return {
      status: 'blocked',
      blockers: [blocker('rpc_unavailable', { details: { chain, detail } })],
    };
  }
  const shownIn = `${formatUnits(amountInMicros, input.decimals)} ${input.symbol}`;
  const shownOut = `${formatUnits(fees.minAmountOutMicros, output.decimals)} ${output.symbol}`;
  return {
    status: 'prepared',
    legs: adapter.buildSwap({
      planId: parameters.planId,
      owner,
      inputToken: input.address,
      amountInMicros,
      allowance: allowance.allowance,
      spender: quote.allowanceTarget,
      call: { to: quote.transaction.to, data: quote.transaction.data },
      summaries: {
        approve: `Approve ${quote.allowanceTarget} to take ${shownIn} on ${chain} (${quote.source} allowance target)`,
        swap: `Swap ${shownIn} for at least ${shownOut} on ${chain} via ${quote.source}`,
      },
    }),
  };
}

/** The swap parts a plan document shows: the request, and with a price the quote and fees. */
export function swapDocumentParts(
  input: SwapToken,
  output: SwapToken,
  amountInMicros: bigint,
  slippageBps: number,
  priced: PricedSwap | undefined,
) {
  return swapPlanParts({ input, output, amountInMicros, slippageBps, priced });
}

/**
 * What a plan keeps for its swap leg's settlement (`plans.swap`): the document's swap parts,
 * the token addresses, where the fee is paid and the contract the quote called.
 */
export function storedSwapParts(
  parts: ReturnType<typeof swapDocumentParts>,
  pricing: SwapPricing & { readonly input: SwapToken; readonly output: SwapToken },
  feeRecipient: string | undefined,
  prepared: boolean,
) {
  return {
    ...parts,
    inputTokenAddress: pricing.input.address,
    outputTokenAddress: pricing.output.address,
    feeRecipient: pricing.serviceFee.bps > 0 ? (feeRecipient ?? null) : null,
    ...(prepared && pricing.priced ? { swapTarget: swapTargetOf(pricing.priced.quote) } : {}),
  };
}
