import type { ErrorCode } from '@yieldrouter/schemas';

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
