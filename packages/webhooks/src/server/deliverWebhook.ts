import { WEBHOOK_SIGNATURE_HEADER } from '../constants';
import { signPayload } from '../signPayload';

/** Headers every delivery carries besides the signature. */
export const WEBHOOK_EVENT_ID_HEADER = 'X-SVC-Event-Id';
export const WEBHOOK_EVENT_TYPE_HEADER = 'X-SVC-Event-Type';

export interface DeliverWebhookParameters {
  readonly url: string;
  /** The exact JSON text to send; it is signed as it is. */
  readonly body: string;
  readonly eventId: string;
  readonly eventType: string;
  /** Signing keys, newest first: during a rotation overlap the new and the previous key. */
  readonly keys: readonly string[];
  /** The signature timestamp (`t=`, whole seconds). */
  readonly now: Date;
  /** The whole exchange (connect, request, response headers) must finish within this. */
  readonly timeoutMs: number;
  /** Default: the global fetch. */
  readonly fetch?: typeof fetch;
}

export interface DeliverWebhookReturnType {
  /** True only for a 2xx answer. */
  readonly ok: boolean;
  /** The receiver's HTTP status, or null when no answer came (refused, reset, timed out). */
  readonly status: number | null;
  readonly latencyMs: number;
  /** Why it failed, short and without secrets; null when ok. */
  readonly error: string | null;
}

const MAX_ERROR_LENGTH = 300;

/**
 * One delivery attempt: POSTs `body` to `url` with `Content-Type: application/json`,
 * `X-SVC-Signature: t=<unix>,v1=<hex>[,v1=<hex>]` (one `v1` per key), `X-SVC-Event-Id` and
 * `X-SVC-Event-Type`. Redirects are not followed (a 3xx is a failure), the attempt is aborted
 * after `timeoutMs`, and only a 2xx counts as delivered. Never throws for a receiver problem:
 * the outcome says what happened. It does not check the URL; callers run
 * `resolveWebhookUrl` first.
 *
 * @example
 * const outcome = await deliverWebhook({
 *   url, body, eventId: 'evt_…', eventType: 'deposit.settled',
 *   keys: [hmacKey], now: new Date(), timeoutMs: 10_000,
 * });
 * // { ok: true, status: 204, latencyMs: 12, error: null }
 */
export async function deliverWebhook({
  url,
  body,
  eventId,
  eventType,
  keys,
  now,
  timeoutMs,
  fetch: send = globalThis.fetch,
}: DeliverWebhookParameters): Promise<DeliverWebhookReturnType> {
  const signature = await signPayload({
    rawBody: body,
    keys,
    timestamp: Math.floor(now.getTime() / 1000),
  });
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await send(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'YieldRouter-Webhooks/1',
        [WEBHOOK_SIGNATURE_HEADER]: signature,
        [WEBHOOK_EVENT_ID_HEADER]: eventId,
        [WEBHOOK_EVENT_TYPE_HEADER]: eventType,
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    // The answer's body is not needed; dropping it frees the connection.
    await response.body?.cancel().catch(() => undefined);
    const latencyMs = elapsed();
    const { status } = response;
    if (status >= 200 && status < 300) return { ok: true, status, latencyMs, error: null };
    const error =
      status >= 300 && status < 400 ? `redirect not followed (HTTP ${status})` : `HTTP ${status}`;
    return { ok: false, status, latencyMs, error };
  } catch (error) {
    return { ok: false, status: null, latencyMs: elapsed(), error: describe(error, timeoutMs) };
  }
}

function describe(error: unknown, timeoutMs: number): string {
  const name = (error as { name?: unknown }).name;
  if (name === 'TimeoutError' || name === 'AbortError') return `timed out after ${timeoutMs} ms`;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  const detail = code ?? (typeof cause?.message === 'string' ? cause.message : String(error));
  return `connection failed: ${detail}`.slice(0, MAX_ERROR_LENGTH);
}
