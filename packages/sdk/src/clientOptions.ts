import type { FetchLike } from './http/fetchTypes';

/** Backoff of automatic retries. Delays double per attempt, capped, with jitter. */
export interface RetryPolicy {
  /** Retries after the first attempt. Default 2. */
  readonly maxRetries?: number;
  /** Delay before the first retry, in ms. Default 500. */
  readonly baseDelayMs?: number;
  /** Upper bound of one backoff delay, in ms. Default 8000. */
  readonly maxDelayMs?: number;
  /** A 429 whose Retry-After is longer than this is thrown, not waited for. Default 60. */
  readonly maxRetryAfterSeconds?: number;
}

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** Site root of the API, e.g. `https://api.example.com` (a trailing `/api/v1` is accepted). */
  readonly baseUrl: string;
  /** Sent as `X-API-Key`. Public routes need none. */
  readonly apiKey?: string;
  /** A `fetch` implementation; default `globalThis.fetch`, looked up at call time. */
  readonly fetch?: FetchLike;
  /** Bound on one attempt (request and body), in ms. Default 30000. */
  readonly timeoutMs?: number;
  /** Retries of idempotent calls, or a full policy. Default 2 retries. */
  readonly retries?: number | RetryPolicy;
  /** Validate every 2xx body with the route's zod schema. Default true. */
  readonly validateResponses?: boolean;
  /** Sent as `User-Agent` where the platform allows it. */
  readonly userAgent?: string;
}

export interface ResolvedClientConfig {
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  readonly fetch: FetchLike;
  readonly timeoutMs: number;
  readonly retry: Required<RetryPolicy>;
  readonly validateResponses: boolean;
  readonly userAgent: string | undefined;
}

const DEFAULT_RETRY: Required<RetryPolicy> = {
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8000,
  maxRetryAfterSeconds: 60,
};

const platformFetch: FetchLike = (url, init) => {
  if (typeof globalThis.fetch !== 'function') {
    throw new TypeError('@yieldrouter/sdk: no global fetch; pass createClient({ fetch })');
  }
  return globalThis.fetch(url, init);
};

/** Fills defaults and normalizes the base URL (no trailing slash, no `/api/v1`). */
export function resolveClientConfig(options: ClientOptions): ResolvedClientConfig {
  const baseUrl = options.baseUrl.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
  if (!/^https?:\/\/[^/]/.test(baseUrl)) {
    throw new TypeError(
      `@yieldrouter/sdk: baseUrl must be an http(s) URL, got '${options.baseUrl}'`,
    );
  }
  const retries =
    typeof options.retries === 'number' ? { maxRetries: options.retries } : options.retries;
  return {
    baseUrl,
    apiKey: options.apiKey,
    fetch: options.fetch ?? platformFetch,
    timeoutMs: options.timeoutMs ?? 30_000,
    retry: { ...DEFAULT_RETRY, ...retries },
    validateResponses: options.validateResponses ?? true,
    userAgent: options.userAgent,
  };
}
