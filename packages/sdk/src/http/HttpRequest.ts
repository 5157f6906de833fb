/** A request ready for the wire, built from a manifest route and the caller's parameters. */
export interface HttpRequest {
  readonly operationId: string;
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
  /** GET/HEAD, or carrying an Idempotency-Key: safe to send again. */
  readonly idempotent: boolean;
}

/** Per-call controls shared by every operation. */
export interface RequestControls {
  /** Cancels the call, including retries and backoff waits. */
  readonly signal?: AbortSignal;
  /** Overrides the client's per-attempt timeout, in ms. */
  readonly timeoutMs?: number;
  /** Overrides the client's retry count for this call. */
  readonly retries?: number;
  /** Extra request headers. */
  readonly headers?: Readonly<Record<string, string>>;
}
