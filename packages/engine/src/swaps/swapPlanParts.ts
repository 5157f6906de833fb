import { FeeError, bpsOf, computeSwapPlanFees, resolveSlippageBps } from '@yieldrouter/fees';
import type { FeeSchedule } from '@yieldrouter/fees';
import type { Blocker, Chain } from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';
import { EngineError } from '../errors';
import { blocker } from '../plans/blocker';
import type { SwapQuote, SwapQuoteRequest, SwapQuoteSource, SwapToken } from './swapQuoteSource';

/** A token named by symbol (any case) or address, in the chain's table; else a 400 naming it. */
export function findSwapToken(
  tokens: readonly SwapToken[],
  asked: string,
  field: 'inputToken' | 'outputToken',
  chain: Chain,
): SwapToken {
  const wanted = asked.trim().toLowerCase();
  const token = tokens.find(
    (entry) => entry.symbol.toLowerCase() === wanted || entry.address.toLowerCase() === wanted,
  );
  if (!token) {
    throw new EngineError(
      'BAD_REQUEST',
      `body.${field}: ${asked} is not a token the service knows on ${chain} (known: ${tokens.map((entry) => entry.symbol).join(', ')})`,
      `body.${field}`,
    );
  }
  return token;
}

/** The two tokens of a swap, checked: both known, not the same token. */
export function swapTokens(
  tokens: readonly SwapToken[],
  request: { readonly inputToken: string; readonly outputToken: string },
  chain: Chain,
): { readonly input: SwapToken; readonly output: SwapToken } {
  const input = findSwapToken(tokens, request.inputToken, 'inputToken', chain);
  const output = findSwapToken(tokens, request.outputToken, 'outputToken', chain);
  if (input.address.toLowerCase() === output.address.toLowerCase()) {
    throw new EngineError(
      'BAD_REQUEST',
      `body.outputToken: must differ from inputToken (both are ${input.symbol})`,
      'body.outputToken',
    );
  }
  return { input, output };
}

/** The slippage bound asked (default from the schedule); outside 0..max a 400 naming it. */
export function swapSlippageBps(asked: number | undefined, schedule: FeeSchedule): number {
  try {
    return resolveSlippageBps(asked, schedule);
  } catch (error) {
    if (error instanceof FeeError) {
      throw new EngineError(
        'BAD_REQUEST',
        `body.slippageBps: ${error.shortMessage}`,
        'body.slippageBps',
      );
    }
    throw error;
  }
}

/** A quote source's unavailability as a plan blocker (the source named, nothing priced). */
export const sourceBlocker = (
  source: string,
  status: 'quote_unavailable' | 'quote_timeout' | 'no_route',
  detail: string,
) => blocker(status, { details: { source, detail } });

export type SwapPlanFees = ReturnType<typeof computeSwapPlanFees>;

/**
 * The plan's fee lines and minimum for a quote (packages/fees), or the blocker that stops it: the
 * quote's amounts out of range, or a minimum of the source's looser than the slippage bound.
 */
export function priceSwapQuote(
  quote: SwapQuote,
  parameters: { amountInMicros: bigint; slippageBps: number; schedule: FeeSchedule },
): { readonly fees: SwapPlanFees } | { readonly blocker: Blocker } {
  let fees: SwapPlanFees;
  try {
    fees = computeSwapPlanFees({
      amountInMicros: parameters.amountInMicros,
      quotedAmountOutMicros: quote.amountOutMicros,
      poolFee: quote.poolFee,
      slippageBps: parameters.slippageBps,
      schedule: parameters.schedule,
    });
  } catch (error) {
    if (!(error instanceof FeeError)) throw error;
    const detail = `the quote's amounts are out of range: ${error.shortMessage}`;
    return { blocker: sourceBlocker(quote.source, 'quote_unavailable', detail) };
  }
  // The transaction enforces the source's minimum: it must be no looser than ours, or a fill
  // the plan refuses could still go through on chain.
  if (quote.minAmountOutMicros < fees.minAmountOutMicros) {
    const detail = `the quote's minimum ${quote.minAmountOutMicros} is below the slippage bound ${fees.minAmountOutMicros}`;
    return { blocker: sourceBlocker(quote.source, 'quote_unavailable', detail) };
  }
  return { fees };
}

/** What pricing a swap needs: the source and fee recipient with the settings that name them. */
export interface PriceSwapParameters<Quote extends SwapQuote> {
  readonly source: SwapQuoteSource<Quote> | undefined;
  /** The setting to name when there is no source. */
  readonly sourceSetting: string;
  readonly feeRecipient: string | undefined;
  readonly feeRecipientSetting: string;
  /** The quote request but for the service fee, which comes from the schedule. */
  readonly request: Omit<SwapQuoteRequest, 'serviceFee'>;
  readonly schedule: FeeSchedule;
}

/**
 * The configuration checked (a source for the chain; a fee recipient when a fee is charged), the
 * source asked and its quote priced: the blockers, and when none the quote and its fees.
 */
export async function priceSwap<Quote extends SwapQuote>(
  parameters: PriceSwapParameters<Quote>,
): Promise<{
  readonly blockers: Blocker[];
  readonly serviceFee: { readonly bps: number; readonly amountMicros: bigint };
  readonly priced?: { readonly quote: Quote; readonly fees: SwapPlanFees };
}> {
  const { source, request, schedule, feeRecipient } = parameters;
  const bps = schedule.swapFeeBps;
  const serviceFee = { bps, amountMicros: bpsOf(request.amountInMicros, bps) };
  const blockers: Blocker[] = [];
  if (!source || !source.chains.includes(request.chain)) {
    blockers.push(blocker('quote_source_not_configured', { field: parameters.sourceSetting }));
  }
  if (!feeRecipient && bps > 0) {
    blockers.push(
      blocker('quote_source_not_configured', {
        field: parameters.feeRecipientSetting,
        details: { why: "nowhere to pay the service's swap fee" },
      }),
    );
  }
  if (blockers.length > 0 || !source) return { blockers, serviceFee };
  // With no fee (0 bps) nothing is paid, so the recipient is never sent.
  const answer = await source.quote({
    ...request,
    serviceFee: { ...serviceFee, recipient: feeRecipient ?? request.taker },
  });
  if (answer.status !== 'ok') {
    blockers.push(sourceBlocker(source.name, answer.status, answer.detail));
    return { blockers, serviceFee };
  }
  const price = priceSwapQuote(answer, {
    amountInMicros: request.amountInMicros,
    slippageBps: request.slippageBps,
    schedule,
  });
  if ('blocker' in price) return { blockers: [price.blocker], serviceFee };
  return { blockers, serviceFee, priced: { quote: answer, fees: price.fees } };
}

/** What a swap plan discloses (and stores): the request, and when priced the quote and fees. */
export function swapPlanParts(parameters: {
  readonly input: SwapToken;
  readonly output: SwapToken;
  readonly amountInMicros: bigint;
  readonly slippageBps: number;
  readonly priced: { readonly quote: SwapQuote; readonly fees: SwapPlanFees } | undefined;
}) {
  const { input, output, priced } = parameters;
  return {
    inputToken: input.symbol,
    outputToken: output.symbol,
    amountInMicros: formatMicros(parameters.amountInMicros),
    slippageBps: parameters.slippageBps,
    ...(priced
      ? {
          quotedAmountOutMicros: formatMicros(priced.quote.amountOutMicros),
          minAmountOutMicros: formatMicros(priced.fees.minAmountOutMicros),
          priceImpactBps: priced.quote.priceImpactBps,
          quoteSource: priced.quote.source,
          expiresAt: priced.quote.expiresAt.toISOString(),
          feeLines: priced.fees.lines.map((line) => ({
            kind: line.kind,
            ...(line.bps === undefined ? {} : { bps: line.bps }),
            amountMicros: formatMicros(line.amountMicros),
            token: line.side === 'input' ? input.symbol : output.symbol,
            payer: line.payer,
          })),
        }
      : {}),
  };
}
