import type { ErrorCode } from '@yieldrouter/schemas';

/**
 * Codes a {@link YieldRouterError} carries: the API's catalog (`GET /api/v1/svc/errors`) plus
 * the client's own. Typed open-ended so a code added to the API later is still a string.
 */
export type YieldRouterErrorCode =
  ErrorCode | 'CONNECTION_ERROR' | 'TIMEOUT' | 'SCHEMA_MISMATCH' | 'UNKNOWN' | (string & {});

export interface YieldRouterErrorParameters {
  readonly status: number;
  readonly code: YieldRouterErrorCode;
  readonly requestId?: string | undefined;
  readonly field?: string | undefined;
  readonly cause?: unknown;
}

/**
 * Base of every error the SDK throws. `status` is the HTTP status (0 when no response came),
 * `code` the API error code, `requestId` the server's `X-Request-Id` to quote to support.
 *
 * @example
 * try {
 *   await client.getPosition({ params: { address } });
 * } catch (error) {
 *   if (error instanceof YieldRouterError) console.error(error.code, error.requestId);
 * }
 */
export class YieldRouterError extends Error {
  override readonly name: string = 'YieldRouterError';
  readonly status: number;
  readonly code: YieldRouterErrorCode;
  readonly requestId: string | undefined;
  /** The request field at fault, e.g. `query.address`, when the API names one. */
  readonly field: string | undefined;

  constructor(message: string, parameters: YieldRouterErrorParameters) {
    super(message, parameters.cause === undefined ? undefined : { cause: parameters.cause });
    this.status = parameters.status;
    this.code = parameters.code;
    this.requestId = parameters.requestId;
    this.field = parameters.field;
  }
}
