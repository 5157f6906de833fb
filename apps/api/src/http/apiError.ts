import { refusalOf } from '@yieldrouter/engine';
import type { ErrorBody, ErrorCode } from '@yieldrouter/schemas';
import { codeToStatus } from '@yieldrouter/schemas';

/** An error that maps to `{ code, message, requestId }` with the code's catalog status. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: ErrorCode;
  readonly field: string | undefined;
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { field?: string; headers?: Record<string, string>; status?: number } = {},
  ) {
    super(message);
    this.code = code;
    this.field = options.field;
    this.headers = options.headers ?? {};
    this.statusOverride = options.status;
  }

  /** Only for the one SPEC case where a code has two statuses (UNAUTHORIZED: 401 or 403). */
  readonly statusOverride: number | undefined;
}

/**
 * An ApiError for an error the API knows (an ApiError, an engine use case refusing input, or the
 * ledger refusing a balance out of its range).
 */
export function knownApiError(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error;
  const refusal = refusalOf(error);
  if (!refusal) return null;
  return new ApiError(refusal.code, refusal.message, refusal.field ? { field: refusal.field } : {});
}

/** The status and `{ code, message, requestId, field? }` body of an ApiError. */
export function errorReply(
  apiError: ApiError,
  requestId: string,
): { readonly status: number; readonly body: ErrorBody } {
  const body: ErrorBody = { code: apiError.code, message: apiError.message, requestId };
  if (apiError.field) body.field = apiError.field;
  return { status: apiError.statusOverride ?? codeToStatus(apiError.code), body };
}
