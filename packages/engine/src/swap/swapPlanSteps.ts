import { FeeError, bpsOf, computeSwapPlanFees, resolveSlippageBps } from '@yieldrouter/fees';
import type { FeeSchedule } from '@yieldrouter/fees';
import type { Blocker, Chain } from '@yieldrouter/schemas';
import { formatMicros, newPlanId } from '@yieldrouter/schemas';
import { EngineError } from '../errors';
import { blocker } from '../plan/blocker';
import type { SwapQuote, SwapQuoteSource, SwapToken } from './swapQuoteSource';

// The steps every swap plan takes whatever its chain: the tokens and slippage checked (400s
// naming the field), the quote priced against the fee schedule, the disclosure written.

/**
 * Each chain's native token by the symbol aggregators take, and the wrapped token our plans swap
 * instead (Sui's native SUI is a coin type its swaps take as it is: not listed).
 */
const NATIVE_TOKENS: Partial<Record<Chain, { readonly native: string; readonly wrapped: string }>> =
  {
    solana: { native: 'SOL', wrapped: 'WSOL' },
    base: { native: 'ETH', wrapped: 'WETH' },
    arbitrum: { native: 'ETH', wrapped: 'WETH' },
  };

/** The address aggregators (0x among them) give an EVM chain's native token. */
const EVM_NATIVE_MARKER = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';

/**
 * The chain's native token and its wrapped symbol when `asked` names the native one (its symbol
 * in any case, or the 0xEeee… address on EVM); undefined otherwise.
 */
export function nativeTokenOf(
  chain: Chain,
  asked: string,
): { readonly native: string; readonly wrapped: string } | undefined {
  const native = NATIVE_TOKENS[chain];
  const wanted = asked.trim().toLowerCase();
  if (!native) return undefined;
  const evm = chain === 'base' || chain === 'arbitrum';
  return wanted === native.native.toLowerCase() || (evm && wanted === EVM_NATIVE_MARKER)
    ? native
    : undefined;
}

/**
 * A token named by symbol (any case) or address, in the chain's table; else a 400 naming it:
 * `NATIVE_TOKEN_NOT_SWAPPABLE` for the chain's native token (a caller that wraps it, as the EVM
 * swap plan does, maps it to the wrapped token first), `BAD_REQUEST` for any other.
 */
export function findSwapToken(
  tokens: readonly SwapToken[],
  asked: string,
  /** The body field that named it (`inputToken`, `outputToken`, `token`). */
  field: string,
  chain: Chain,
): SwapToken {
  const wanted = asked.trim().toLowerCase();
  const token = tokens.find(
    (entry) => entry.symbol.toLowerCase() === wanted || entry.address.toLowerCase() === wanted,
  );
  if (!token) {
    const native = nativeTokenOf(chain, asked);
    if (native) {
      throw new EngineError(
        'NATIVE_TOKEN_NOT_SWAPPABLE',
        `body.${field}: ${asked} is ${chain}'s native token, which ${field === 'token' ? 'this route does' : `${chain} swap plans do`} not wrap yet: name ${native.wrapped} (native gas: POST /api/v1/svc/gas-sponsor/plan)`,
        `body.${field}`,
      );
    }
    throw new EngineError(
      'BAD_REQUEST',
      `body.${field}: ${asked} is not a token the service knows on ${chain} (known: ${tokens.map((entry) => entry.symbol).join(', ')})`,
      `body.${field}`,
    );
  }
  return token;
}

/** Two different tokens, else a 400 naming `outputToken`. */
export function assertDifferentTokens(input: SwapToken, output: SwapToken): void {
  if (input.address.toLowerCase() === output.address.toLowerCase()) {
    throw new EngineError(
      'BAD_REQUEST',
      `body.outputToken: must differ from inputToken (both are ${input.symbol})`,
      'body.outputToken',
    );
  }
}

/** The request's slippage or the schedule's default; beyond the schedule a 400 naming it. */
export function resolveSwapSlippage(requested: number | undefined, schedule: FeeSchedule): number {
  try {
    return resolveSlippageBps(requested, schedule);
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
 * The quote's fee lines and minimum out from the schedule, or the blocker that refuses it: its
 * amounts out of range, or its own minimum looser than the plan's bound (the transaction enforces
 * the source's minimum, so a fill the plan refuses could still go through on chain).
 */
export function priceSwapQuote(parameters: {
  readonly quote: SwapQuote;
  readonly amountInMicros: bigint;
  readonly slippageBps: number;
  readonly schedule: FeeSchedule;
}): { readonly fees: SwapPlanFees } | { readonly blocker: Blocker } {
  const { quote } = parameters;
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
    return {
      blocker: sourceBlocker(
        quote.source,
        'quote_unavailable',
        `the quote's amounts are out of range: ${error.shortMessage}`,
      ),
    };
  }
  if (quote.minAmountOutMicros < fees.minAmountOutMicros) {
    return {
      blocker: sourceBlocker(
        quote.source,
        'quote_unavailable',
        `the quote's minimum ${quote.minAmountOutMicros} is below the slippage bound ${fees.minAmountOutMicros}`,
      ),
    };
  }
  return { fees };
}

/** The swap parts of a plan's disclosure: the request, and the priced quote when there is one. */
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

/** What a swap plan is about, checked: the same for every chain once the request is read. */
export interface SwapPlanBasis {
  readonly planId: string;
  readonly chain: Chain;
  /** The owner in the chain's canonical form. */
  readonly owner: string;
  readonly input: SwapToken;
  readonly output: SwapToken;
  readonly amountInMicros: bigint;
  readonly slippageBps: number;
  /** The service fee the schedule charges on the input (the plan's fee while it is blocked). */
  readonly serviceFee: { readonly bps: number; readonly amountMicros: bigint };
  /** Where that fee is paid on the chain; undefined when not configured. */
  readonly feeRecipient: string | undefined;
  readonly schedule: FeeSchedule;
}

export interface BeginSwapPlanParameters {
  readonly chain: Chain;
  /** The chain's token table. */
  readonly tokens: readonly SwapToken[];
  readonly request: {
    readonly owner: string;
    readonly inputToken: string;
    readonly outputToken: string;
    readonly amountInMicros: bigint;
    readonly slippageBps?: number | undefined;
  };
  /** The chain's address check: the canonical form, or undefined when it is not one. */
  readonly normalizeOwner: (address: string) => string | undefined;
  /** How the chain's addresses look, for the 400's message. */
  readonly ownerFormat: string;
  readonly feeRecipient: string | undefined;
  readonly schedule: FeeSchedule;
}

/**
 * Reads a swap request into its basis, refusing with a 400 naming the field (nothing stored):
 * an unknown token, the same token both ways, an owner not in the chain's format, a slippage
 * outside the schedule's bound.
 */
export function beginSwapPlan(parameters: BeginSwapPlanParameters): SwapPlanBasis {
  const { chain, tokens, request, schedule } = parameters;
  const input = findSwapToken(tokens, request.inputToken, 'inputToken', chain);
  const output = findSwapToken(tokens, request.outputToken, 'outputToken', chain);
  assertDifferentTokens(input, output);
  const owner = parameters.normalizeOwner(request.owner);
  if (!owner) {
    throw new EngineError(
      'BAD_REQUEST',
      `body.owner: not an address on ${chain} (${parameters.ownerFormat})`,
      'body.owner',
    );
  }
  const slippageBps = resolveSwapSlippage(request.slippageBps, schedule);
  const amountInMicros = request.amountInMicros;
  return {
    planId: newPlanId(),
    chain,
    owner,
    input,
    output,
    amountInMicros,
    slippageBps,
    serviceFee: {
      bps: schedule.swapFeeBps,
      amountMicros: bpsOf(amountInMicros, schedule.swapFeeBps),
    },
    feeRecipient: parameters.feeRecipient,
    schedule,
  };
}

/**
 * Asks the source for a quote and prices it, or says why not: no source for the chain
 * (`settings.source` named), nowhere to pay a non-zero service fee (`settings.feeRecipient`
 * named), the source unavailable, slow or without a route, or a quote the schedule refuses.
 * Blockers come back in that order; nothing is priced without a quote.
 */
export async function quoteSwapPlan<Quote extends SwapQuote>(
  basis: Omit<SwapPlanBasis, 'planId'>,
  source: SwapQuoteSource<Quote> | undefined,
  settings: { readonly source: string; readonly feeRecipient: string },
): Promise<{
  readonly blockers: Blocker[];
  readonly priced?: { readonly quote: Quote; readonly fees: SwapPlanFees };
}> {
  const { chain, serviceFee, feeRecipient, owner } = basis;
  const blockers: Blocker[] = [];
  if (!source || !source.chains.includes(chain)) {
    blockers.push(blocker('quote_source_not_configured', { field: settings.source }));
  }
  if (!feeRecipient && serviceFee.bps > 0) {
    blockers.push(
      blocker('quote_source_not_configured', {
        field: settings.feeRecipient,
        details: { why: "nowhere to pay the service's swap fee" },
      }),
    );
  }
  if (blockers.length > 0 || !source) return { blockers };
  const answer = await source.quote({
    chain,
    inputToken: basis.input,
    outputToken: basis.output,
    amountInMicros: basis.amountInMicros,
    slippageBps: basis.slippageBps,
    taker: owner,
    // With no fee (0 bps) nothing is paid, so the recipient is never sent.
    serviceFee: { ...serviceFee, recipient: feeRecipient ?? owner },
  });
  if (answer.status !== 'ok') {
    return { blockers: [sourceBlocker(source.name, answer.status, answer.detail)] };
  }
  const priced = priceSwapQuote({
    quote: answer,
    amountInMicros: basis.amountInMicros,
    slippageBps: basis.slippageBps,
    schedule: basis.schedule,
  });
  if ('blocker' in priced) return { blockers: [priced.blocker] };
  return { blockers, priced: { quote: answer, fees: priced.fees } };
}
