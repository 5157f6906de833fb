import { minAmountOut } from '@yieldrouter/fees';
import type { CetusRoutesResponse } from './cetusRoutesResponse';
import {
  CETUS_NO_ROUTE_CODES,
  CetusRoutesResponse as CetusRoutesSchema,
} from './cetusRoutesResponse';
import { fullCoinType, fullSuiId } from './cetusSettings';
import type { SuiSwapHop, SuiSwapQuote, SuiSwapRoute } from './suiSwapQuote';
import type { SwapQuoteRequest, SwapQuoteUnavailable } from './swapQuoteSource';

/** What a Cetus quote is read against: the request, the fee-net amount asked, the packages. */
export interface CetusQuoteContext {
  readonly request: SwapQuoteRequest;
  readonly netAmountInMicros: bigint;
  readonly packageId: string;
  readonly globalConfigId: string;
  readonly expiresAt: Date;
}

const SCALE = 10n ** 18n;

/** A non-negative decimal string as an integer scaled by 10^18 (no floats). */
function scaled(decimal: string): bigint | undefined {
  const match = /^(-?)([0-9]{1,30})(?:\.([0-9]{1,40}))?$/.exec(decimal.trim());
  if (!match) return undefined;
  const [, sign = '', whole = '0', fraction = ''] = match;
  const value = BigInt(whole) * SCALE + BigInt(fraction.slice(0, 18).padEnd(18, '0'));
  return sign === '-' ? -value : value;
}

/** `deviation_ratio` (a signed fraction) as whole bps, rounded half up; null when absent. */
function impactBps(ratio: string | number | undefined): number | null | 'bad' {
  if (ratio === undefined) return null;
  const value = scaled(typeof ratio === 'number' ? ratio.toFixed(12) : ratio);
  if (value === undefined) return 'bad';
  const magnitude = value < 0n ? -value : value;
  const bps = (magnitude * 10_000n + SCALE / 2n) / SCALE;
  return bps > 10_000n ? 'bad' : Number(bps);
}

/** The pool fee of a single-hop route, on the input: amount_in × fee_rate, rounded down. */
function hopFee(amountIn: bigint, feeRate: string): bigint | undefined {
  const rate = scaled(feeRate);
  return rate === undefined || rate >= SCALE ? undefined : (amountIn * rate) / SCALE;
}

/**
 * A Cetus find-routes answer checked against what was asked: the whole (fee-net) input routed,
 * every route a chain of Cetus pools from the input coin to the output coin with amounts that
 * add up. The minimum out is the plan's slippage bound (the leg's `check_coin_threshold`
 * enforces it on chain). No liquidity or no route → `no_route`; anything else →
 * `quote_unavailable`.
 */
export function readCetusQuote(
  body: unknown,
  context: CetusQuoteContext,
): SuiSwapQuote | SwapQuoteUnavailable {
  const parsed = CetusRoutesSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      status: 'quote_unavailable',
      detail: `Cetus answered routes of the wrong shape (${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'})`,
    };
  }
  const answer: CetusRoutesResponse = parsed.data;
  if (CETUS_NO_ROUTE_CODES.includes(answer.code)) {
    return { status: 'no_route', detail: `Cetus found no route (${answer.code} ${answer.msg})` };
  }
  if (answer.code !== 200 && answer.code !== 0) {
    return { status: 'quote_unavailable', detail: `Cetus answered code ${answer.code}` };
  }
  const data = answer.data;
  if (!data || data.insufficient_liquidity === true || data.routes.length === 0) {
    return { status: 'no_route', detail: 'Cetus has no liquidity for this pair and amount' };
  }
  const unusable = (why: string): SwapQuoteUnavailable => ({
    status: 'quote_unavailable',
    detail: `Cetus answered unusable routes: ${why}`,
  });
  const { request, netAmountInMicros } = context;
  const input = fullCoinType(request.inputToken.address);
  const output = fullCoinType(request.outputToken.address);
  if (BigInt(data.amount_in) !== netAmountInMicros) return unusable('another amount in');
  const routes: SuiSwapRoute[] = [];
  for (const route of data.routes) {
    const hops: SuiSwapHop[] = route.path.map((path) => ({
      provider: path.provider,
      poolId: fullSuiId(path.id),
      a2b: path.direction,
      coinIn: fullCoinType(path.from),
      coinOut: fullCoinType(path.target),
      amountIn: BigInt(path.amount_in),
      amountOut: BigInt(path.amount_out),
    }));
    if (hops.some((hop) => hop.provider.toUpperCase() !== 'CETUS')) {
      return unusable('a pool of another DEX (only Cetus pools are built)');
    }
    const chained = hops.every((hop, index) =>
      index === 0 ? hop.coinIn === input : hop.coinIn === hops[index - 1]?.coinOut,
    );
    if (!chained || hops.at(-1)?.coinOut !== output) {
      return unusable('a route that does not lead from the input to the output coin');
    }
    const amountIn = BigInt(route.amount_in);
    const amountOut = BigInt(route.amount_out);
    if (hops[0]?.amountIn !== amountIn || hops.at(-1)?.amountOut !== amountOut || amountIn <= 0n) {
      return unusable("a route's amounts differ from its pools'");
    }
    routes.push({ amountIn, amountOut, hops });
  }
  const routedIn = routes.reduce((total, route) => total + route.amountIn, 0n);
  const routedOut = routes.reduce((total, route) => total + route.amountOut, 0n);
  if (routedIn !== netAmountInMicros) return unusable('the routes do not swap the whole input');
  if (routedOut !== BigInt(data.amount_out) || routedOut <= 0n) {
    return unusable('amount_out is not what the routes deliver');
  }
  const impact = impactBps(data.deviation_ratio);
  if (impact === 'bad') return unusable('deviation_ratio is not a fraction');
  let poolFee: SuiSwapQuote['poolFee'] = null;
  if (routes.every((route) => route.hops.length === 1)) {
    let total = 0n;
    for (const [index, route] of data.routes.entries()) {
      const fee = hopFee(routes[index]?.amountIn ?? 0n, route.path[0]?.fee_rate ?? '');
      if (fee === undefined) return unusable('a fee_rate of 1 or more');
      total += fee;
    }
    poolFee = { amountMicros: total, side: 'input' };
  }
  let minimum: bigint;
  try {
    minimum = minAmountOut({ quotedAmountOutMicros: routedOut, slippageBps: request.slippageBps });
  } catch {
    return unusable('amount_out is out of range');
  }
  return {
    status: 'ok',
    family: 'sui',
    source: 'cetus',
    amountOutMicros: routedOut,
    minAmountOutMicros: minimum,
    poolFee,
    route: routes.flatMap((route) => route.hops.map((hop) => `${hop.provider}:${hop.poolId}`)),
    priceImpactBps: impact,
    expiresAt: context.expiresAt,
    netAmountInMicros,
    routes,
    packageId: context.packageId,
    globalConfigId: context.globalConfigId,
  };
}
