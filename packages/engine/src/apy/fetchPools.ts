import type { ApyUnavailableReason } from './types';

/** The `/pools` body text, or a source-level failure (applies to every pool). */
export type PoolsFetch =
  | { readonly ok: true; readonly text: string }
  | {
      readonly ok: false;
      readonly reason: Extract<ApyUnavailableReason, 'source_timeout' | 'source_error'>;
      readonly detail: string;
    };

/**
 * `{baseUrl}/pools` with any query string kept (keys may travel in the path or the query), or
 * null when the base URL is not an http(s) URL.
 */
export function poolsUrl(baseUrl: string): URL | null {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/pools`;
  return url;
}

/** A short error code (ECONNREFUSED, UND_ERR_SOCKET, …) from a fetch failure; never its message. */
function errorCode(error: unknown): string | null {
  // Duck-typed: fetch errors may come from another realm (e.g. under jest).
  const cause =
    typeof error === 'object' && error !== null && 'cause' in error ? error.cause : null;
  for (const candidate of [cause, error]) {
    if (typeof candidate === 'object' && candidate !== null && 'code' in candidate) {
      const code = candidate.code;
      if (typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code)) return code;
    }
  }
  return null;
}

/** Rejects when the signal aborts, so a fetch that ignores its signal cannot outlive the timeout. */
function whenAborted(signal: AbortSignal): { promise: Promise<never>; dispose: () => void } {
  let onAbort = (): void => undefined;
  const promise = new Promise<never>((_, reject) => {
    onAbort = () => reject(new Error('aborted'));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  promise.catch(() => undefined);
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) };
}

async function requestText(
  url: URL,
  signal: AbortSignal,
  fetchImpl: typeof fetch,
): Promise<PoolsFetch> {
  const res = await fetchImpl(url, { signal, headers: { accept: 'application/json' } });
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    return { ok: false, reason: 'source_error', detail: `source answered HTTP ${res.status}` };
  }
  return { ok: true, text: await res.text() };
}

/**
 * GETs the pools list once; `timeoutMs` bounds the whole exchange, body included. Failures are
 * returned, not thrown, and their details never include the URL or raw error messages.
 */
export async function fetchPools(
  url: URL,
  timeoutMs: number,
  fetchImpl: typeof fetch,
): Promise<PoolsFetch> {
  const signal = AbortSignal.timeout(timeoutMs);
  const aborted = whenAborted(signal);
  try {
    return await Promise.race([requestText(url, signal, fetchImpl), aborted.promise]);
  } catch (error) {
    if (signal.aborted) {
      return {
        ok: false,
        reason: 'source_timeout',
        detail: `source did not answer within ${timeoutMs} ms`,
      };
    }
    const code = errorCode(error);
    return {
      ok: false,
      reason: 'source_error',
      detail: code ? `source request failed (${code})` : 'source request failed',
    };
  } finally {
    aborted.dispose();
  }
}
