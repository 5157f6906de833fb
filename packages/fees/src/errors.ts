/** Base error of @yieldrouter/fees. */
export class BaseError extends Error {
  override name = 'FeesBaseError';
  readonly shortMessage: string;
  readonly details: string | undefined;

  constructor(shortMessage: string, options: { details?: string; cause?: unknown } = {}) {
    super(options.details ? `${shortMessage}\n\nDetails: ${options.details}` : shortMessage, {
      cause: options.cause,
    });
    this.shortMessage = shortMessage;
    this.details = options.details;
  }
}

/** A fee input is out of range (negative amount, bps outside 0..10000, over 2^63 − 1 …). */
export class FeeError extends BaseError {
  override name = 'FeeError' as const;
  /** The input field at fault, when there is one. */
  readonly field: string | undefined;

  constructor(shortMessage: string, options: { field?: string; details?: string } = {}) {
    super(shortMessage, options);
    this.field = options.field;
  }
}
