import type { RetryPolicy } from '../clientOptions';
import { ConnectionError } from '../errors/ConnectionError';
import { RateLimitError } from '../errors/httpErrors';
import type { YieldRouterError } from '../errors/YieldRouterError';

/**
 * Milliseconds to wait before retrying after `error`, or undefined when it must not be retried:
 * connection failures, 429 (after Retry-After when given), 409 IDEMPOTENCY_IN_PROGRESS and
 * 5xx except 501. The caller decides whether the call is idempotent at all.
 */
export function retryDelay(
  error: YieldRouterError,
  attempt: number,
  policy: Required<RetryPolicy>,
  random: () => number = Math.random,
): number | undefined {
  if (error instanceof RateLimitError && error.retryAfterSeconds !== undefined) {
    if (error.retryAfterSeconds > policy.maxRetryAfterSeconds) return undefined;
    return error.retryAfterSeconds * 1000;
  }
  const transient =
    error instanceof ConnectionError ||
    error instanceof RateLimitError ||
    error.code === 'IDEMPOTENCY_IN_PROGRESS' ||
    (error.status >= 500 && error.status !== 501);
  if (!transient) return undefined;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  // "Equal jitter": half fixed so retries keep backing off, half random to spread clients out.
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
