import { fetchPools, poolsUrl } from './fetchPools';
import { readPoolValues } from './poolReading';
import { indexPoolsResponse } from './poolsResponse';
import type { ApyQuery, ApyReader, ApyReading, ApyUnavailableReason } from './types';

/** The `source` of every reading from a DefiLlama-compatible yields endpoint. */
export const DEFILLAMA_SOURCE = 'defillama';

/** Options of {@link createDefiLlamaReader}. */
export interface DefiLlamaReaderOptions {
  /** e.g. `https://yields.llama.fi`; undefined or blank → every reading `source_not_configured`. */
  readonly baseUrl: string | undefined;
  /** Bound on one whole `/pools` exchange, headers and body. */
  readonly timeoutMs: number;
  readonly fetch?: typeof fetch;
  /** Clock for `asOf` (the moment the response was read; `/pools` has no per-pool time). */
  readonly now?: () => Date;
}

function unavailable(venueId: string, reason: ApyUnavailableReason, detail: string): ApyReading {
  return { venueId, status: 'unavailable', source: DEFILLAMA_SOURCE, reason, detail };
}

function hasPoolId(query: ApyQuery): query is ApyQuery & { readonly poolId: string } {
  return query.poolId !== undefined && query.poolId.trim() !== '';
}

/**
 * An {@link ApyReader} over a DefiLlama-compatible yields API (`GET {baseUrl}/pools`). One request
 * per `read()` (none when nothing is configured), bounded by `timeoutMs`; every query gets a
 * reading in query order, and a failed source makes every configured query unavailable. Throws
 * (at creation only) when `timeoutMs` is not a positive integer.
 */
export function createDefiLlamaReader(options: DefiLlamaReaderOptions): ApyReader {
  if (!Number.isSafeInteger(options.timeoutMs) || options.timeoutMs <= 0) {
    throw new RangeError('timeoutMs must be a positive integer');
  }
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const now = options.now ?? (() => new Date());
  const base = options.baseUrl?.trim() ? options.baseUrl : undefined;
  const url = base === undefined ? null : poolsUrl(base);
  const notConfigured =
    base === undefined
      ? 'no yields source base URL is configured'
      : 'the yields source base URL is not a valid http(s) URL';

  async function read(queries: readonly ApyQuery[]): Promise<readonly ApyReading[]> {
    if (url === null) {
      return queries.map((q) => unavailable(q.venueId, 'source_not_configured', notConfigured));
    }
    if (!queries.some(hasPoolId)) return queries.map(withoutPoolId);
    const fetched = await fetchPools(url, options.timeoutMs, fetchImpl);
    const index = fetched.ok ? indexPoolsResponse(fetched.text) : null;
    const asOf = now();
    return queries.map((query): ApyReading => {
      if (!hasPoolId(query)) return withoutPoolId(query);
      if (!fetched.ok) return unavailable(query.venueId, fetched.reason, fetched.detail);
      if (index === null || !index.ok) {
        const detail = index?.detail ?? 'response could not be read';
        return unavailable(query.venueId, 'source_bad_response', detail);
      }
      const values = readPoolValues(index.pools.get(query.poolId));
      if (!values.ok) return unavailable(query.venueId, values.reason, values.detail);
      return {
        venueId: query.venueId,
        status: 'ok',
        source: DEFILLAMA_SOURCE,
        asOf,
        apyBps: values.apyBps,
        apyBaseBps: values.apyBaseBps,
        apyRewardBps: values.apyRewardBps,
        tvlUsdMicros: values.tvlUsdMicros,
        facts: values.facts,
      };
    });
  }

  return { source: DEFILLAMA_SOURCE, read };
}

function withoutPoolId(query: ApyQuery): ApyReading {
  return unavailable(
    query.venueId,
    'source_not_configured',
    'no yields pool id is configured for this venue',
  );
}
