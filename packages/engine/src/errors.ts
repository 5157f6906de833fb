import type { ErrorCode } from '@yieldrouter/schemas';

/** A use case refusing its input: the API answers with `code` (catalog status) and `field`. */
export class EngineError extends Error {
  override readonly name = 'EngineError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}
