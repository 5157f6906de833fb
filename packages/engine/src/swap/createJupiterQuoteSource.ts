import { JupiterErrorResponse } from './jupiterResponses';
import { fetchSourceJson } from './fetchSourceJson';
import type { FetchSourceJsonReturnType } from './fetchSourceJson';
import {
  jupiterSwapAmount,
  readJupiterQuote,
  readJupiterSwapInstructions,
} from './readJupiterQuote';
import type {
  SolanaSwapQuote,
  SwapQuoteRequest,
  SwapQuoteSource,
  SwapQuoteUnavailable,
} from './swapQuoteSource';

export interface JupiterSourceSettings {
  /** `https://api.jup.ag/swap/v1` in production; a bed's fake in tests and localnet. */
  readonly baseUrl: string;
  /** Sent as `x-api-key` when set (the keyless `lite-api.jup.ag` needs none). */
  readonly apiKey: string | undefined;
  /** Upper bound on both exchanges together (quote and swap-instructions), bodies included. */
  readonly timeoutMs: number;
  /** The program the swap instruction must call (Jupiter v6; the bed's pool in tests). */
  readonly programId: string;
  /** How long a quote is honoured (Jupiter quotes carry no expiry of their own). */
  readonly quoteTtlMs: number;
}

export interface CreateJupiterQuoteSourceParameters extends JupiterSourceSettings {
  readonly now?: () => Date;
  readonly fetch?: typeof fetch;
}

/** Jupiter's error codes that mean the pair or amount has no route (HTTP 400 / 404). */
const NO_ROUTE_CODES = new Set([
  'COULD_NOT_FIND_ANY_ROUTE',
  'NO_ROUTES_FOUND',
  'TOKEN_NOT_TRADABLE',
  'ROUTE_PLAN_DOES_NOT_CONSUME_ALL_THE_AMOUNT',
  'CIRCULAR_ARBITRAGE_IS_DISABLED',
]);

const endpoint = (baseUrl: string, path: string) => {
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${path}`;
  return url;
};

/** The quote URL for a request: ExactIn of the input net of the service fee, direct routes. */
export function jupiterQuoteUrl(
  settings: Pick<JupiterSourceSettings, 'baseUrl'>,
  request: SwapQuoteRequest,
): URL {
  const url = endpoint(settings.baseUrl, 'quote');
  const query = url.searchParams;
  query.set('inputMint', request.inputToken.address);
  query.set('outputMint', request.outputToken.address);
  query.set('amount', jupiterSwapAmount(request).toString());
  query.set('slippageBps', String(request.slippageBps));
  query.set('swapMode', 'ExactIn');
  // One hop: every route fee is then in the input or the output token, so the fee line is exact.
  query.set('onlyDirectRoutes', 'true');
  return url;
}

function notJson(
  answer: Exclude<FetchSourceJsonReturnType, { status: 'json' }>,
): SwapQuoteUnavailable {
  if (answer.status !== 'http_error') return answer;
  const error = JupiterErrorResponse.safeParse(answer.body);
  const code = error.success ? error.data.errorCode : undefined;
  if (
    (answer.httpStatus === 400 || answer.httpStatus === 404) &&
    code &&
    NO_ROUTE_CODES.has(code)
  ) {
    return { status: 'no_route', detail: `Jupiter found no route (${code})` };
  }
  return { status: 'quote_unavailable', detail: `Jupiter answered HTTP ${answer.httpStatus}` };
}

/**
 * The Jupiter Swap API v1 quote source (Solana): `GET /quote` then `POST /swap-instructions`
 * for the owner, within one `timeoutMs`. Plain fetch + zod rather than `@jup-ag/api`: the same
 * fail-closed exchange as the 0x source (one abort signal over both calls, bodies checked by
 * schema, details without URL or key) and no generated client to keep in step. Fail-closed:
 * timeout → `quote_timeout`; refused, HTTP error, not JSON, wrong shape or unsafe instructions
 * → `quote_unavailable`; Jupiter's no-route codes → `no_route`.
 *
 * @example
 * const source = createJupiterQuoteSource({ baseUrl: 'https://api.jup.ag/swap/v1', apiKey,
 *   timeoutMs: 4_000, programId: JUPITER_V6_PROGRAM_ID, quoteTtlMs: 30_000 });
 * await source.quote({ chain: 'solana', inputToken, outputToken, amountInMicros: 10_000_000n,
 *   slippageBps: 100, taker: owner, serviceFee: { bps: 10, amountMicros: 10_000n, recipient } });
 */
export function createJupiterQuoteSource(
  parameters: CreateJupiterQuoteSourceParameters,
): SwapQuoteSource<SolanaSwapQuote> {
  const now = parameters.now ?? (() => new Date());
  const fetchImpl = parameters.fetch ?? fetch;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (parameters.apiKey) headers['x-api-key'] = parameters.apiKey;
  return {
    name: 'jupiter',
    chains: ['solana'],
    async quote(request) {
      if (jupiterSwapAmount(request) <= 0n) {
        return { status: 'no_route', detail: 'nothing is left to swap after the service fee' };
      }
      const signal = AbortSignal.timeout(parameters.timeoutMs);
      const exchange = (url: URL, init: RequestInit = {}) =>
        fetchSourceJson({
          source: 'Jupiter',
          url,
          init: { ...init, headers: { ...headers, ...init.headers }, signal },
          timeoutMs: parameters.timeoutMs,
          fetch: fetchImpl,
        });
      const quoted = await exchange(jupiterQuoteUrl(parameters, request));
      if (quoted.status !== 'json') return notJson(quoted);
      const facts = readJupiterQuote(
        quoted.body,
        request,
        new Date(now().getTime() + parameters.quoteTtlMs),
      );
      if (facts.status !== 'ok') return facts;
      const built = await exchange(endpoint(parameters.baseUrl, 'swap-instructions'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          userPublicKey: request.taker,
          quoteResponse: quoted.body,
          wrapAndUnwrapSol: false,
        }),
      });
      if (built.status !== 'json') return notJson(built);
      const instructions = readJupiterSwapInstructions(built.body, {
        owner: request.taker,
        programId: parameters.programId,
      });
      if ('status' in instructions) return instructions;
      return {
        ...facts,
        source: 'jupiter',
        family: 'solana',
        instructions,
        swapProgram: parameters.programId,
      };
    },
  };
}
