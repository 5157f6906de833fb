import { MAX_MICROS } from '@yieldrouter/schemas';
import type { Blocker, LegBuild } from '@yieldrouter/schemas';
import type { SwapQuoteFacts, SwapQuoteUnavailable, SwapToken } from './swapQuoteSource';
import { sourceBlocker } from './swapPlanSteps';

/** A gas top-up priced through a chain's quote source, or why not (each family's `price…TopUp`). */
export type PricedTopUp<Quote extends SwapQuoteFacts = SwapQuoteFacts> =
  | {
      readonly status: 'prepared';
      readonly build: LegBuild;
      /** The USDC the swap sells, the service fee included. */
      readonly grossMicros: bigint;
      readonly quote: Quote;
      /** What the swap sells and buys (the plan keeps them for its legs' settlement). */
      readonly tokens: { readonly input: SwapToken; readonly output: SwapToken };
      /** The contract / program the swap leg calls: its receipt must show the call. */
      readonly swapTarget: string;
    }
  | { readonly status: 'blocked'; readonly build: LegBuild };

/** 1 USDC: the first quote's size, which prices the amount the second one sells. */
const PROBE_MICROS = 1_000_000n;

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

export interface SizeTopUpSaleParameters<Quote extends SwapQuoteFacts> {
  /** The source's name, for the blocker. */
  readonly source: string;
  /** The native (wrapped) base units the sale must yield at least. */
  readonly nativeNeeded: bigint;
  /** What the unit is called in the blocker's detail (wei, lamports). */
  readonly unit: string;
  /** One ExactIn quote selling `amountInMicros` USDC, the service fee included. */
  quoteFor(amountInMicros: bigint): Promise<Quote | SwapQuoteUnavailable>;
}

export type SizeTopUpSaleReturnType<Quote extends SwapQuoteFacts> =
  | { readonly status: 'ok'; readonly sellMicros: bigint; readonly quote: Quote }
  | { readonly status: 'blocked'; readonly blockers: Blocker[] };

/**
 * The USDC a gas top-up sells, through a source that quotes a sell amount (ExactIn: 0x,
 * Jupiter): a 1 USDC quote sets the rate, a second quote sells what that rate says
 * `nativeNeeded` costs; while its slippage-bound minimum falls short, the sale is scaled again
 * (at most three times, never past 2^63 − 1 micros). Blocked with the source's reason (down, slow, garbage, no route), or
 * `quote_unavailable` when even the last sale's minimum is short of `nativeNeeded`.
 */
export async function sizeTopUpSale<Quote extends SwapQuoteFacts>(
  parameters: SizeTopUpSaleParameters<Quote>,
): Promise<SizeTopUpSaleReturnType<Quote>> {
  const { nativeNeeded, quoteFor, source } = parameters;
  let sell = PROBE_MICROS;
  let answer = await quoteFor(sell);
  for (let round = 0; round < 3 && answer.status === 'ok'; round += 1) {
    if (answer.minAmountOutMicros >= nativeNeeded && round > 0) break;
    if (answer.minAmountOutMicros <= 0n) break;
    const next = ceilDiv(nativeNeeded * sell, answer.minAmountOutMicros) + (round > 0 ? 1n : 0n);
    // A rate so poor the sale leaves the range of amounts: no quote is asked for it.
    if (next > MAX_MICROS) break;
    sell = next;
    answer = await quoteFor(sell);
  }
  if (answer.status !== 'ok') {
    return { status: 'blocked', blockers: [sourceBlocker(source, answer.status, answer.detail)] };
  }
  if (answer.minAmountOutMicros < nativeNeeded) {
    const detail = `selling ${sell} USDC micros yields at least ${answer.minAmountOutMicros} ${parameters.unit}, short of ${nativeNeeded}`;
    return { status: 'blocked', blockers: [sourceBlocker(source, 'quote_unavailable', detail)] };
  }
  return { status: 'ok', sellMicros: sell, quote: answer };
}
