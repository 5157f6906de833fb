import type { Chain } from '@yieldrouter/schemas';
import { readCetusQuote } from './readCetusQuote';
import type { SuiSwapQuote } from './suiSwapQuote';
import type { SwapQuoteRequest, SwapQuoteSource } from './swapQuoteSource';

export interface CetusSourceSettings {
  /** The aggregator API root (`https://api-sui.cetus.zone/router_v3`); a bed's fake in tests. */
  readonly baseUrl: string;
  /** Upper bound on the whole exchange, body included. */
  readonly timeoutMs: number;
  /** How long a quote is honoured (find-routes answers carry no expiry of their own). */
  readonly quoteTtlMs: number;
  /** The aggregator package the leg's Move calls target (a setting, never the answer's). */
  readonly packageId: string;
  readonly globalConfigId: string;
}

export interface CreateCetusQuoteSourceParameters extends CetusSourceSettings {
  readonly now?: () => Date;
  readonly fetch?: typeof fetch;
}

/** The find-routes URL for a request: the fee-net input, Cetus pools only, by amount in. */
export function cetusRoutesUrl(
  settings: Pick<CetusSourceSettings, 'baseUrl'>,
  request: SwapQuoteRequest,
  netAmountInMicros: bigint,
): URL {
  const url = new URL(settings.baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/find_routes`;
  const query = url.searchParams;
  query.set('from', request.inputToken.address);
  query.set('target', request.outputToken.address);
  query.set('amount', netAmountInMicros.toString());
  query.set('by_amount_in', 'true');
  query.set('depth', '3');
  // The leg builder builds Cetus pool calls only: routes through other DEXes are not asked for.
  query.set('providers', 'CETUS');
  return url;
}

/**
 * The Cetus aggregator quote source (Sui): `GET /find_routes` with fetch, the answer checked
 * with zod (`readCetusQuote`); the programmable transaction is built locally from the routes
 * (chain-sui `buildSuiSwapLeg`). The service fee is taken from the input before the swap, so
 * the routes are asked for the input less that fee. Fail-closed like the 0x source:
 * `AbortSignal.timeout` bounds the exchange (→ `quote_timeout`); a refused connection, an HTTP
 * error, a body that is not JSON or not usable routes → `quote_unavailable`; no liquidity →
 * `no_route`. Details never carry the URL.
 *
 * @example
 * const source = createCetusQuoteSource({ baseUrl, timeoutMs: 4_000, quoteTtlMs: 30_000,
 *   packageId, globalConfigId });
 * await source.quote({ chain: 'sui', inputToken, outputToken, amountInMicros: 10_000_000n,
 *   slippageBps: 100, taker: owner, serviceFee: { bps: 10, amountMicros: 10_000n, recipient } });
 */
export function createCetusQuoteSource(
  parameters: CreateCetusQuoteSourceParameters,
): SwapQuoteSource<SuiSwapQuote> {
  const now = parameters.now ?? (() => new Date());
  const fetchImpl = parameters.fetch ?? fetch;
  const chains: readonly Chain[] = ['sui'];
  return {
    name: 'cetus',
    chains,
    async quote(request) {
      const netAmountInMicros = request.amountInMicros - request.serviceFee.amountMicros;
      if (netAmountInMicros <= 0n) {
        return { status: 'no_route', detail: 'nothing is left to swap after the service fee' };
      }
      const url = cetusRoutesUrl(parameters, request, netAmountInMicros);
      const signal = AbortSignal.timeout(parameters.timeoutMs);
      let body: unknown;
      try {
        const response = await fetchImpl(url, { headers: { accept: 'application/json' }, signal });
        if (!response.ok) {
          await response.body?.cancel().catch(() => undefined);
          return { status: 'quote_unavailable', detail: `Cetus answered HTTP ${response.status}` };
        }
        const text = await response.text();
        try {
          body = JSON.parse(text) as unknown;
        } catch {
          return {
            status: 'quote_unavailable',
            detail: 'Cetus answered something that is not JSON',
          };
        }
      } catch (error) {
        if (signal.aborted) {
          return {
            status: 'quote_timeout',
            detail: `Cetus did not answer within ${parameters.timeoutMs} ms`,
          };
        }
        const code = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
        return {
          status: 'quote_unavailable',
          detail: `Cetus could not be reached${typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? ` (${code})` : ''}`,
        };
      }
      return readCetusQuote(body, {
        request,
        netAmountInMicros,
        packageId: parameters.packageId,
        globalConfigId: parameters.globalConfigId,
        expiresAt: new Date(now().getTime() + parameters.quoteTtlMs),
      });
    },
  };
}
