import { FeeError, computeSwapPlanFees, resolveSlippageBps } from '@yieldrouter/fees';
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

/**
 * Asks the source for a quote and prices it: the quote and its fees, or undefined with the
 * blocker that stopped it pushed onto `blockers` (unavailable, slow, no route, out of bounds).
 */
export async function quoteSwap<Quote extends SwapQuote>(
  source: SwapQuoteSource<Quote>,
  request: SwapQuoteRequest,
  schedule: FeeSchedule,
  blockers: Blocker[],
): Promise<{ readonly quote: Quote; readonly fees: SwapPlanFees } | undefined> {
  const answer = await source.quote(request);
  if (answer.status !== 'ok') {
    blockers.push(sourceBlocker(source.name, answer.status, answer.detail));
    return undefined;
  }
  const price = priceSwapQuote(answer, {
    amountInMicros: request.amountInMicros,
    slippageBps: request.slippageBps,
    schedule,
  });
  if ('blocker' in price) {
    blockers.push(price.blocker);
    return undefined;
  }
  return { quote: answer, fees: price.fees };
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
