import { YieldRouterError } from './YieldRouterError';

/**
 * No HTTP response: the network failed (`CONNECTION_ERROR`) or the attempt ran past
 * `timeoutMs` (`TIMEOUT`). `status` is 0; `cause` holds the underlying error.
 *
 * @example
 * if (error instanceof ConnectionError && error.code === 'TIMEOUT') retryLater();
 */
export class ConnectionError extends YieldRouterError {
  override readonly name = 'ConnectionError';

  constructor(
    message: string,
    parameters: { code: 'CONNECTION_ERROR' | 'TIMEOUT'; cause?: unknown },
  ) {
    super(message, { status: 0, ...parameters });
  }
}
