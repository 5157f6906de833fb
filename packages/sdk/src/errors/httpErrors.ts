import type { YieldRouterErrorParameters } from './YieldRouterError';
import { YieldRouterError } from './YieldRouterError';

/**
 * 401: no `X-API-Key` on a keyed route (`UNAUTHORIZED`) or an unknown key (`INVALID_API_KEY`).
 *
 * @example
 * if (error instanceof AuthenticationError) askForAnotherKey();
 */
export class AuthenticationError extends YieldRouterError {
  override readonly name = 'AuthenticationError';
}

/**
 * 403: the key's role may not call the route (`UNAUTHORIZED`), or the wallet is outside the
 * key's allowed wallets (`WALLET_SCOPE`, `CHARACTER_SCOPE`).
 *
 * @example
 * if (error instanceof PermissionError && error.code === 'WALLET_SCOPE') useTheWalletsKey();
 */
export class PermissionError extends YieldRouterError {
  override readonly name = 'PermissionError';
}

/**
 * 400: the request is malformed; `field` names the input at fault (`query.address`).
 *
 * @example
 * if (error instanceof ValidationError) form.markInvalid(error.field);
 */
export class ValidationError extends YieldRouterError {
  override readonly name = 'ValidationError';
}

/**
 * 404: unknown route or resource (`NOT_FOUND`, `strategy_unknown`, `FORM_NOT_FOUND`).
 *
 * @example
 * const strategy = await client.getStrategy({ params: { id } }).catch((error: unknown) => {
 *   if (error instanceof NotFoundError) return null;
 *   throw error;
 * });
 */
export class NotFoundError extends YieldRouterError {
  override readonly name = 'NotFoundError';
}

/**
 * 429: rate limited. `retryAfterSeconds` comes from the `Retry-After` header. Idempotent calls
 * are retried automatically first; this is thrown when the retries are spent.
 *
 * @example
 * if (error instanceof RateLimitError) await sleep((error.retryAfterSeconds ?? 1) * 1000);
 */
export class RateLimitError extends YieldRouterError {
  override readonly name = 'RateLimitError';
  readonly retryAfterSeconds: number | undefined;

  constructor(
    message: string,
    parameters: YieldRouterErrorParameters & { readonly retryAfterSeconds: number | undefined },
  ) {
    super(message, parameters);
    this.retryAfterSeconds = parameters.retryAfterSeconds;
  }
}

/**
 * 501: the route is in the manifest but its handler has not landed on this server yet
 * (`GET /api/v1/svc/routes` lists what is implemented). Never retried.
 *
 * @example
 * if (error instanceof NotImplementedError) fallBackToAnotherFlow();
 */
export class NotImplementedError extends YieldRouterError {
  override readonly name = 'NotImplementedError';
}

/**
 * 5xx other than 501. Idempotent calls are retried with backoff before this is thrown.
 *
 * @example
 * if (error instanceof ServerError) report(error.requestId);
 */
export class ServerError extends YieldRouterError {
  override readonly name = 'ServerError';
}
