import type { ResolvedClientConfig } from '../clientOptions';
import { errorFromResponse } from '../errors/errorFromResponse';
import { YieldRouterError } from '../errors/YieldRouterError';
import { sleep } from './abortSignals';
import { exchange } from './exchange';
import type { ReceivedResponse } from './fetchTypes';
import type { HttpRequest, RequestControls } from './HttpRequest';
import { retryDelay } from './retryDelay';

const isSuccess = (status: number) => status >= 200 && status < 300;

/**
 * Sends `request` until it gets a 2xx, retrying transient failures (connection, 429, 5xx) with
 * backoff — only when the request is idempotent. Throws the typed error of the last attempt.
 */
export async function sendRequest(
  config: ResolvedClientConfig,
  request: HttpRequest,
  controls: RequestControls,
): Promise<ReceivedResponse> {
  const maxRetries = request.idempotent ? (controls.retries ?? config.retry.maxRetries) : 0;
  const timeoutMs = controls.timeoutMs ?? config.timeoutMs;
  for (let attempt = 0; ; attempt += 1) {
    let error: YieldRouterError;
    try {
      const response = await exchange(config.fetch, request, timeoutMs, controls.signal);
      if (isSuccess(response.status)) return response;
      error = errorFromResponse(response);
    } catch (thrown) {
      if (!(thrown instanceof YieldRouterError)) throw thrown;
      error = thrown;
    }
    const delay = attempt < maxRetries ? retryDelay(error, attempt, config.retry) : undefined;
    if (delay === undefined) throw error;
    await sleep(delay, controls.signal);
  }
}
