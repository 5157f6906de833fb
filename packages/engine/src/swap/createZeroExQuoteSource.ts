import type { Chain } from '@yieldrouter/schemas';
import { EVM_CHAIN_IDS } from '@yieldrouter/schemas';
import type {
  EvmSwapQuote,
  SwapQuoteRequest,
  SwapQuoteSource,
  SwapQuoteUnavailable,
} from './swapQuoteSource';
import { ZeroExQuoteResponse } from './zeroExQuoteResponse';
import { fetchSourceJson } from './fetchSourceJson';

export interface ZeroExSettings {
  /** `https://api.0x.org` in production; a bed's fake in tests and localnet. */
  readonly baseUrl: string;
  /** Sent as `0x-api-key` when set (0x requires one; a bed's fake does not). */
  readonly apiKey: string | undefined;
  /** Upper bound on the whole exchange, body included. */
  readonly timeoutMs: number;
  /** How long a quote is honoured (0x quotes carry no expiry of their own). */
  readonly quoteTtlMs: number;
}

export interface CreateZeroExQuoteSourceParameters extends ZeroExSettings {
  readonly now?: () => Date;
  readonly fetch?: typeof fetch;
}

const SAME = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The allowance-holder quote URL for a request (the service fee rides in the query). */
export function zeroExQuoteUrl(
  settings: Pick<ZeroExSettings, 'baseUrl'>,
  request: SwapQuoteRequest,
): URL {
  const url = new URL(settings.baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/swap/allowance-holder/quote`;
  const query = url.searchParams;
  query.set('chainId', String(EVM_CHAIN_IDS[request.chain as keyof typeof EVM_CHAIN_IDS]));
  query.set('sellToken', request.inputToken.address);
  query.set('buyToken', request.outputToken.address);
  query.set('sellAmount', request.amountInMicros.toString());
  query.set('taker', request.taker);
  query.set('slippageBps', String(request.slippageBps));
  if (request.serviceFee.bps > 0) {
    query.set('swapFeeBps', String(request.serviceFee.bps));
    query.set('swapFeeRecipient', request.serviceFee.recipient);
    query.set('swapFeeToken', request.inputToken.address);
  }
  return url;
}

/**
 * A 0x answer checked against what was asked: the same chain, tokens and sell amount, a
 * transaction with no value, an allowance target, the service fee charged as asked, and a
 * minimum no looser than the slippage bound. Anything else is `quote_unavailable`.
 */
export function readZeroExQuote(
  body: unknown,
  request: SwapQuoteRequest,
  expiresAt: Date,
): EvmSwapQuote | SwapQuoteUnavailable {
  const parsed = ZeroExQuoteResponse.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      status: 'quote_unavailable',
      detail: `0x answered a quote of the wrong shape (${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'})`,
    };
  }
  const quote = parsed.data;
  if (!quote.liquidityAvailable) {
    return { status: 'no_route', detail: '0x has no liquidity for this pair and amount' };
  }
  const unusable = (why: string): SwapQuoteUnavailable => ({
    status: 'quote_unavailable',
    detail: `0x answered an unusable quote: ${why}`,
  });
  const chainId = EVM_CHAIN_IDS[request.chain as keyof typeof EVM_CHAIN_IDS];
  if (quote.chainId !== chainId) return unusable(`chain ${quote.chainId}, not ${chainId}`);
  if (!SAME(quote.sellToken, request.inputToken.address)) return unusable('another sell token');
  if (!SAME(quote.buyToken, request.outputToken.address)) return unusable('another buy token');
  if (BigInt(quote.sellAmount) !== request.amountInMicros) return unusable('another sell amount');
  if (quote.transaction.value !== '0') return unusable('the transaction carries value');
  if (!quote.allowanceTarget) return unusable('no allowance target for an ERC-20 sell');
  const integratorFee = quote.fees.integratorFee ?? null;
  if (
    request.serviceFee.amountMicros > 0n &&
    (!integratorFee ||
      !SAME(integratorFee.token, request.inputToken.address) ||
      BigInt(integratorFee.amount) !== request.serviceFee.amountMicros)
  ) {
    return unusable("the service's swap fee is not charged as asked");
  }
  const amountOutMicros = BigInt(quote.buyAmount);
  const minAmountOutMicros = BigInt(quote.minBuyAmount);
  if (minAmountOutMicros > amountOutMicros) return unusable('minBuyAmount above buyAmount');
  const zeroExFee = quote.fees.zeroExFee ?? null;
  let poolFee: EvmSwapQuote['poolFee'] = null;
  if (zeroExFee) {
    const side = SAME(zeroExFee.token, request.outputToken.address)
      ? 'output'
      : SAME(zeroExFee.token, request.inputToken.address)
        ? 'input'
        : undefined;
    if (!side) return unusable('a fee in a third token');
    poolFee = { amountMicros: BigInt(zeroExFee.amount), side };
  }
  return {
    status: 'ok',
    family: 'evm',
    source: '0x',
    amountOutMicros,
    minAmountOutMicros,
    poolFee,
    route: (quote.route?.fills ?? []).map((fill) => fill.source),
    priceImpactBps: null,
    expiresAt,
    transaction: {
      to: quote.transaction.to,
      data: quote.transaction.data,
      value: BigInt(quote.transaction.value),
    },
    allowanceTarget: quote.allowanceTarget,
    ...takerAllowanceOf(quote.issues, quote.allowanceTarget, request.amountInMicros),
  };
}

/**
 * The taker's allowance as 0x read it (`issues.allowance`: null when it covers the sell amount,
 * else what it is, for the spender named); unreported or for another spender, nothing (the plan
 * reads it on chain). A wrong report costs nothing but a reverted swap: no fill, nothing moves.
 */
function takerAllowanceOf(
  issues: { allowance?: { actual: string; spender: string } | null | undefined } | undefined,
  allowanceTarget: string,
  amountInMicros: bigint,
): { takerAllowance?: bigint } {
  if (!issues || issues.allowance === undefined) return {};
  if (issues.allowance === null) return { takerAllowance: amountInMicros };
  return SAME(issues.allowance.spender, allowanceTarget)
    ? { takerAllowance: BigInt(issues.allowance.actual) }
    : {};
}

/**
 * The 0x Swap API v2 quote source (allowance-holder `quote`, Base and Arbitrum). Fail-closed:
 * `AbortSignal.timeout` bounds the exchange (→ `quote_timeout`); a refused connection, an HTTP
 * error, a body that is not JSON or not a usable quote → `quote_unavailable`; no liquidity →
 * `no_route`. Details never carry the URL or the API key.
 *
 * @example
 * const source = createZeroExQuoteSource({ baseUrl: 'https://api.0x.org', apiKey, timeoutMs: 4_000,
 *   quoteTtlMs: 30_000 });
 * await source.quote({ chain: 'base', inputToken, outputToken, amountInMicros: 10_000_000n,
 *   slippageBps: 100, taker: owner, serviceFee: { bps: 10, amountMicros: 10_000n, recipient } });
 */
export function createZeroExQuoteSource(
  parameters: CreateZeroExQuoteSourceParameters,
): SwapQuoteSource {
  const now = parameters.now ?? (() => new Date());
  const fetchImpl = parameters.fetch ?? fetch;
  const chains: readonly Chain[] = ['base', 'arbitrum'];
  return {
    name: '0x',
    chains,
    async quote(request) {
      const url = zeroExQuoteUrl(parameters, request);
      const headers: Record<string, string> = { accept: 'application/json', '0x-version': 'v2' };
      if (parameters.apiKey) headers['0x-api-key'] = parameters.apiKey;
      const answer = await fetchSourceJson({
        source: '0x',
        url,
        init: { headers, signal: AbortSignal.timeout(parameters.timeoutMs) },
        timeoutMs: parameters.timeoutMs,
        fetch: fetchImpl,
      });
      if (answer.status === 'http_error') {
        return { status: 'quote_unavailable', detail: `0x answered HTTP ${answer.httpStatus}` };
      }
      if (answer.status !== 'json') return answer;
      const body = answer.body;
      return readZeroExQuote(body, request, new Date(now().getTime() + parameters.quoteTtlMs));
    },
  };
}
