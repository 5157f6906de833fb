import { LedgerError } from '@yieldrouter/ledger';
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

/**
 * The refusal a use case's error stands for, or null for a fault: an EngineError as it is, and
 * the ledger refusing a balance past what the books hold (2^63 − 1 micros) as
 * AMOUNT_OUT_OF_RANGE — the amounts asked for, not us.
 */
export function refusalOf(error: unknown): EngineError | null {
  if (error instanceof EngineError) return error;
  if (error instanceof LedgerError && error.code === 'OUT_OF_RANGE') {
    return new EngineError('AMOUNT_OUT_OF_RANGE', error.message);
  }
  return null;
}
