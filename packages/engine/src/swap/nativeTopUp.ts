import { computeGasSponsorFee } from '@yieldrouter/fees';
import type { FeeSchedule } from '@yieldrouter/fees';
import type { Blocker, Chain, LegBuild } from '@yieldrouter/schemas';
import { MAX_MICROS, formatMicros } from '@yieldrouter/schemas';
import { blocker } from '../plan/blocker';
import { quoteBlocker } from './priceSwap';
import type {
  SwapQuote,
  SwapQuoteFacts,
  SwapQuoteSource,
  SwapQuoteUnavailable,
  SwapToken,
} from './swapQuoteSource';

/**
 * What a priced top-up keeps for its swap leg's settlement (`plans.swap`, as a swap plan does):
 * the tokens, the quote's amounts and expiry (execute refuses the plan past it), the contract or
 * package the swap leg calls and where its fee is paid.
 */
export type TopUpSwap = {
  readonly inputToken: string;
  readonly outputToken: string;
  readonly inputTokenAddress: string;
  readonly outputTokenAddress: string;
  readonly amountInMicros: string;
  readonly quotedAmountOutMicros: string;
  readonly minAmountOutMicros: string;
  readonly quoteSource: string;
  readonly expiresAt: string;
  readonly swapTarget: string;
  readonly feeRecipient: string | null;
};

/** A top-up of native gas priced in USDC (any chain family), or why there is none. */
export type NativeTopUp =
  | {
      readonly status: 'prepared';
      readonly build: LegBuild;
      /** The USDC the swap sells, the service fee included. */
      readonly grossMicros: bigint;
      readonly quote: SwapQuoteFacts;
      readonly swap: TopUpSwap;
    }
  | { readonly status: 'blocked'; readonly build: LegBuild };

export const blockedTopUp = (blockers: Blocker[]): NativeTopUp => ({
  status: 'blocked',
  build: { status: 'blocked', blockers },
});

/**
 * A top-up that charges the gas-sponsor fee needs somewhere to pay it: blocked
 * `quote_source_not_configured` naming `setting` when the recipient is unset and the fee is not 0.
 */
export function feeRecipientBlockers(
  recipient: string | undefined,
  schedule: FeeSchedule,
  setting: string,
): Blocker[] {
  if (recipient || schedule.gasSponsorFeeBps === 0) return [];
  return [
    blocker('quote_source_not_configured', {
      field: setting,
      details: { why: "nowhere to pay the service's gas-sponsor fee" },
    }),
  ];
}

/**
 * One ExactIn quote of a top-up sale of `amountInMicros` USDC for the chain's native (or wrapped
 * native) token, at the schedule's default slippage, with the gas-sponsor fee
 * (`computeGasSponsorFee` of the sale) paid to `recipient` in the same transaction.
 */
export function topUpQuoteFor<Quote extends SwapQuote>(
  source: SwapQuoteSource<Quote>,
  sale: {
    readonly chain: Chain;
    readonly input: SwapToken;
    readonly output: SwapToken;
    readonly owner: string;
    readonly recipient: string | undefined;
    readonly schedule: FeeSchedule;
  },
): (amountInMicros: bigint) => Promise<Quote | SwapQuoteUnavailable> {
  const { chain, input, output, owner, recipient, schedule } = sale;
  return (amountInMicros) =>
    source.quote({
      chain,
      inputToken: input,
      outputToken: output,
      amountInMicros,
      slippageBps: schedule.slippage.defaultBps,
      taker: owner,
      serviceFee: {
        bps: schedule.gasSponsorFeeBps,
        amountMicros: computeGasSponsorFee({ grossMicros: amountInMicros, schedule }).feeMicros,
        recipient: recipient ?? owner,
      },
    });
}

/** The stored swap of a top-up that sells `grossMicros` of `input` for `output`. */
export function topUpSwap(parameters: {
  readonly tokens: { readonly input: SwapToken; readonly output: SwapToken };
  readonly grossMicros: bigint;
  readonly quote: SwapQuoteFacts;
  readonly swapTarget: string;
  readonly schedule: FeeSchedule;
  readonly feeRecipient: string | undefined;
}): TopUpSwap {
  const { tokens, quote, schedule } = parameters;
  return {
    inputToken: tokens.input.symbol,
    outputToken: tokens.output.symbol,
    inputTokenAddress: tokens.input.address,
    outputTokenAddress: tokens.output.address,
    amountInMicros: formatMicros(parameters.grossMicros),
    quotedAmountOutMicros: formatMicros(quote.amountOutMicros),
    minAmountOutMicros: formatMicros(quote.minAmountOutMicros),
    quoteSource: quote.source,
    expiresAt: quote.expiresAt.toISOString(),
    swapTarget: parameters.swapTarget,
    feeRecipient: schedule.gasSponsorFeeBps > 0 ? (parameters.feeRecipient ?? null) : null,
  };
}

/** 1 USDC: the first quote's size, which prices the amount the second one sells. */
const PROBE_MICROS = 1_000_000n;

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

/**
 * How much USDC to sell for at least `needed` of the output, when the source only quotes a sell
 * amount (ExactIn: 0x, Cetus). A 1 USDC probe (or `from`, an earlier sale) sets the rate; the
 * next quote sells what that rate says `needed` costs; while its slippage-bound minimum falls
 * short the sale is scaled once more (three rounds at most, never past 2^63 − 1 micros: a rate
 * that poor asks for no quote). Blocked with the source's reason
 * when a quote fails, or `quote_unavailable` when the last minimum is still short.
 */
export async function sizeExactInSale<Quote extends SwapQuoteFacts>(parameters: {
  readonly needed: bigint;
  readonly quoteFor: (amountInMicros: bigint) => Promise<Quote | SwapQuoteUnavailable>;
  /** The source's name (blockers) and the output's unit (details). */
  readonly source: string;
  readonly unit: string;
  readonly from?: { readonly sell: bigint; readonly answer: Quote };
}): Promise<
  | { readonly status: 'ok'; readonly sell: bigint; readonly answer: Quote }
  | { readonly status: 'blocked'; readonly blockers: Blocker[] }
> {
  const { needed, quoteFor, source } = parameters;
  let sell = parameters.from?.sell ?? PROBE_MICROS;
  let answer = parameters.from?.answer ?? (await quoteFor(sell));
  for (let round = 0; round < 3 && answer.status === 'ok'; round += 1) {
    if (answer.minAmountOutMicros >= needed && round > 0) break;
    if (answer.minAmountOutMicros <= 0n) break;
    const next = ceilDiv(needed * sell, answer.minAmountOutMicros) + (round > 0 ? 1n : 0n);
    if (next > MAX_MICROS) break;
    sell = next;
    answer = await quoteFor(sell);
  }
  if (answer.status !== 'ok') {
    return { status: 'blocked', blockers: [quoteBlocker(answer.status, answer.detail, source)] };
  }
  if (answer.minAmountOutMicros < needed) {
    const detail = `selling ${sell} USDC micros yields at least ${answer.minAmountOutMicros} ${parameters.unit}, short of ${needed}`;
    return { status: 'blocked', blockers: [quoteBlocker('quote_unavailable', detail, source)] };
  }
  return { status: 'ok', sell, answer };
}
