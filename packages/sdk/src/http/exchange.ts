import { ConnectionError } from '../errors/ConnectionError';
import { anySignal } from './abortSignals';
import type { FetchLike, ReceivedResponse } from './fetchTypes';
import type { HttpRequest } from './HttpRequest';

/**
 * One attempt: fetch and read the whole body under one timeout. A caller abort rejects with
 * the caller's reason; a timeout or network failure becomes a {@link ConnectionError}.
 */
export async function exchange(
  fetch: FetchLike,
  request: HttpRequest,
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
): Promise<ReceivedResponse> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = callerSignal ? anySignal([callerSignal, timeout]) : timeout;
  try {
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      signal,
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text };
  } catch (error) {
    if (callerSignal?.aborted) throw callerSignal.reason;
    if (timeout.aborted) {
      throw new ConnectionError(
        `${request.operationId}: no response within ${timeoutMs} ms (${request.method} ${request.url})`,
        { code: 'TIMEOUT', cause: error },
      );
    }
    throw new ConnectionError(
      `${request.operationId}: could not reach the API (${request.method} ${request.url})`,
      { code: 'CONNECTION_ERROR', cause: error },
    );
  }
}
