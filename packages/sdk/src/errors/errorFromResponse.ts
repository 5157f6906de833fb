import type { ReceivedResponse } from '../http/fetchTypes';
import { parseRetryAfter } from '../http/parseRetryAfter';
import {
  AuthenticationError,
  NotFoundError,
  NotImplementedError,
  PermissionError,
  RateLimitError,
  ServerError,
  ValidationError,
} from './httpErrors';
import type { YieldRouterErrorParameters } from './YieldRouterError';
import { YieldRouterError } from './YieldRouterError';

const stringField = (body: unknown, key: string): string | undefined => {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : undefined;
};

function readJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The typed error for a non-2xx response. The body is read leniently (`{ code, message,
 * requestId, field }`): a proxy's HTML page still becomes an error with its status.
 */
export function errorFromResponse(response: ReceivedResponse): YieldRouterError {
  const body = readJson(response.text);
  const { status } = response;
  const message = stringField(body, 'message') ?? `HTTP ${status}`;
  const parameters: YieldRouterErrorParameters = {
    status,
    code: stringField(body, 'code') ?? 'UNKNOWN',
    requestId: stringField(body, 'requestId') ?? response.headers.get('x-request-id') ?? undefined,
    field: stringField(body, 'field'),
  };
  if (status === 400) return new ValidationError(message, parameters);
  if (status === 401) return new AuthenticationError(message, parameters);
  if (status === 403) return new PermissionError(message, parameters);
  if (status === 404) return new NotFoundError(message, parameters);
  if (status === 429) {
    const retryAfterSeconds = parseRetryAfter(response.headers.get('retry-after'));
    return new RateLimitError(message, { ...parameters, retryAfterSeconds });
  }
  if (status === 501) return new NotImplementedError(message, parameters);
  if (status >= 500) return new ServerError(message, parameters);
  return new YieldRouterError(message, parameters);
}
