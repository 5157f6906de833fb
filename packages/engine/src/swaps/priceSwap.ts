import { FeeError, bpsOf, computeSwapPlanFees } from '@yieldrouter/fees';
import type { FeeSchedule } from '@yieldrouter/fees';
import type {
  AllowanceReading,
  Blocker,
  Chain,
  ChainAdapter,
  LegBuild,
} from '@yieldrouter/schemas';
import { formatUnits } from '@yieldrouter/schemas';
import { blocker } from '../plans/blocker';
import type { EvmSwapQuote, SwapQuoteSource, SwapToken } from './swapQuoteSource';
import { sourceBlocker, swapPlanParts } from './swapPlanSteps';

/** A quote source's unavailability as a plan blocker (the source named, nothing priced). */
export const quoteBlocker = (
  status: 'quote_unavailable' | 'quote_timeout' | 'no_route',
  detail: string,
  source = '0x',
) => sourceBlocker(source, status, detail);

export interface PriceSwapParameters {
  readonly chain: Chain;
  readonly source: SwapQuoteSource | undefined;
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

/** A quote and the fee lines and bounds computed from it. */
export interface PricedSwap {
  readonly quote: EvmSwapQuote;
  readonly fees: ReturnType<typeof computeSwapPlanFees>;
}

export interface SwapPricing {
  /** Empty when priced. */
  readonly blockers: Blocker[];
  readonly priced: PricedSwap | undefined;
  /** The service's swap fee on the input (from the schedule), priced or not. */
  readonly serviceFee: { readonly bps: number; readonly amountMicros: bigint };
}

/**
 * One quote from the chain's source, its fee lines (packages/fees) and its slippage bound; or
 * the blockers why there is none: no source or fee recipient configured, the source unavailable,
 * slow or answering garbage, no route, amounts out of range, a quote whose own minimum is looser
 * than the plan's bound. Never a made-up price.
 */
export async function priceSwap(parameters: PriceSwapParameters): Promise<SwapPricing> {
  const { chain, source, input, output, amountInMicros, slippageBps, owner, schedule } = parameters;
  const serviceFee = {
    bps: schedule.swapFeeBps,
    amountMicros: bpsOf(amountInMicros, schedule.swapFeeBps),
  };
  const blockers: Blocker[] = [];
  const { feeRecipient } = parameters;
  if (!source || !source.chains.includes(chain)) {
    blockers.push(blocker('quote_source_not_configured', { field: parameters.sourceSetting }));
  }
  if (!feeRecipient && serviceFee.bps > 0) {
    blockers.push(
      blocker('quote_source_not_configured', {
        field: `SVC_${chain.toUpperCase()}_SWAP_FEE_RECIPIENT`,
        details: { why: "nowhere to pay the service's swap fee" },
      }),
    );
  }
  if (blockers.length > 0 || !source) return { blockers, priced: undefined, serviceFee };
  const answer = await source.quote({
    chain,
    inputToken: input,
    outputToken: output,
    amountInMicros,
    slippageBps,
    taker: owner,
    // With no fee (0 bps) nothing is paid, so the recipient is never sent.
    serviceFee: { ...serviceFee, recipient: feeRecipient ?? owner },
  });
  if (answer.status !== 'ok') {
    blockers.push(quoteBlocker(answer.status, answer.detail, source.name));
    return { blockers, priced: undefined, serviceFee };
  }
  let fees: ReturnType<typeof computeSwapPlanFees>;
  try {
    fees = computeSwapPlanFees({
      amountInMicros,
      quotedAmountOutMicros: answer.amountOutMicros,
      poolFee: answer.poolFee,
      slippageBps,
      schedule,
    });
  } catch (error) {
    if (!(error instanceof FeeError)) throw error;
    const detail = `the quote's amounts are out of range: ${error.shortMessage}`;
    return {
      blockers: [quoteBlocker('quote_unavailable', detail, source.name)],
      priced: undefined,
      serviceFee,
    };
  }
  // The transaction enforces the source's minimum: it must be no looser than ours, or a fill
  // the plan refuses could still go through on chain.
  if (answer.minAmountOutMicros < fees.minAmountOutMicros) {
    const detail = `the quote's minimum ${answer.minAmountOutMicros} is below the slippage bound ${fees.minAmountOutMicros}`;
    return {
      blockers: [quoteBlocker('quote_unavailable', detail, source.name)],
      priced: undefined,
      serviceFee,
    };
  }
  return { blockers: [], priced: { quote: answer, fees }, serviceFee };
}

export interface BuildSwapLegsParameters {
  readonly adapter: ChainAdapter;
  readonly chain: Chain;
  readonly planId: string;
  readonly owner: string;
  readonly input: SwapToken;
  readonly output: SwapToken;
  readonly amountInMicros: bigint;
  readonly priced: PricedSwap;
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
export async function buildSwapLegs(parameters: BuildSwapLegsParameters): Promise<LegBuild> {
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

/**
 * A swap priced (`priceSwap`) and, when priced, its legs built (`buildSwapLegs`): the one quote
 * a swap or cross-asset plan makes, and its legs or the blockers why there are none.
 */
export async function prepareSwapLegs(
  parameters: PriceSwapParameters & { readonly adapter: ChainAdapter; readonly planId: string },
): Promise<{ readonly pricing: SwapPricing; readonly build: LegBuild }> {
  const pricing = await priceSwap(parameters);
  const build: LegBuild = pricing.priced
    ? await buildSwapLegs({ ...parameters, priced: pricing.priced })
    : { status: 'blocked', blockers: pricing.blockers };
  return { pricing, build };
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
    ...(prepared && pricing.priced ? { swapTarget: pricing.priced.quote.transaction.to } : {}),
  };
}
