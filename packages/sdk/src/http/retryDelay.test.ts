import { ConnectionError } from '../errors/ConnectionError';
import { RateLimitError, ValidationError } from '../errors/httpErrors';
import { YieldRouterError } from '../errors/YieldRouterError';
import { parseRetryAfter } from './parseRetryAfter';
import { retryDelay } from './retryDelay';

const policy = { maxRetries: 5, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterSeconds: 60 };
const connection = new ConnectionError('down', { code: 'CONNECTION_ERROR' });

describe('retryDelay', () => {
  it('doubles per attempt with equal jitter, capped', () => {
    expect(retryDelay(connection, 0, policy, () => 0)).toBe(50);
    expect(retryDelay(connection, 0, policy, () => 1)).toBe(100);
    expect(retryDelay(connection, 2, policy, () => 1)).toBe(400);
    expect(retryDelay(connection, 9, policy, () => 1)).toBe(1000);
  });

  it('honours Retry-After, and gives up past maxRetryAfterSeconds', () => {
    const limited = (seconds: number | undefined) =>
      new RateLimitError('slow', { status: 429, code: 'RATE_LIMITED', retryAfterSeconds: seconds });
    expect(retryDelay(limited(2), 0, policy)).toBe(2000);
    expect(retryDelay(limited(61), 0, policy)).toBeUndefined();
    expect(retryDelay(limited(undefined), 0, policy, () => 1)).toBe(100);
  });

  it('retries 5xx (not 501) and 409 IDEMPOTENCY_IN_PROGRESS; never other 4xx', () => {
    const error = (status: number, code: string) => new YieldRouterError('x', { status, code });
    expect(retryDelay(error(503, 'SERVICE_UNAVAILABLE'), 0, policy)).toBeDefined();
    expect(retryDelay(error(501, 'NOT_IMPLEMENTED'), 0, policy)).toBeUndefined();
    expect(retryDelay(error(409, 'IDEMPOTENCY_IN_PROGRESS'), 0, policy)).toBeDefined();
    expect(
      retryDelay(new ValidationError('x', { status: 400, code: 'BAD_REQUEST' }), 0, policy),
    ).toBeUndefined();
  });
});

describe('parseRetryAfter', () => {
  it('reads delay-seconds and HTTP dates', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});
