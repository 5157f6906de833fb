import type { SwapQuoteUnavailable } from './swapQuoteSource';

export interface FetchSourceJsonParameters {
  /** The source as people know it (`0x`, `Jupiter`): details name it, never the URL or a key. */
  readonly source: string;
  readonly url: URL;
  readonly init: RequestInit & { readonly signal: AbortSignal };
  readonly timeoutMs: number;
  readonly fetch: typeof fetch;
}

export type FetchSourceJsonReturnType =
  | { readonly status: 'json'; readonly body: unknown }
  /** An HTTP error answer: its status and, when it was JSON, its body (an error code to read). */
  | { readonly status: 'http_error'; readonly httpStatus: number; readonly body: unknown }
  | SwapQuoteUnavailable;

/**
 * One exchange with a quote source, fail-closed: the signal's abort → `quote_timeout`; a refused
 * connection or a body that is not JSON → `quote_unavailable`; an HTTP error → `http_error` with
 * its JSON body when there is one, for the caller to tell "no route" from "down".
 */
export async function fetchSourceJson(
  parameters: FetchSourceJsonParameters,
): Promise<FetchSourceJsonReturnType> {
  const { source, init } = parameters;
  try {
    const response = await parameters.fetch(parameters.url, init);
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      if (!response.ok) return { status: 'http_error', httpStatus: response.status, body: null };
      return {
        status: 'quote_unavailable',
        detail: `${source} answered something that is not JSON`,
      };
    }
    if (!response.ok) return { status: 'http_error', httpStatus: response.status, body };
    return { status: 'json', body };
  } catch (error) {
    if (init.signal.aborted) {
      return {
        status: 'quote_timeout',
        detail: `${source} did not answer within ${parameters.timeoutMs} ms`,
      };
    }
    const code = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
    return {
      status: 'quote_unavailable',
      detail: `${source} could not be reached${typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? ` (${code})` : ''}`,
    };
  }
}
