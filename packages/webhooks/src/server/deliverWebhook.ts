import { WEBHOOK_SIGNATURE_HEADER } from '../constants';
import { signPayload } from '../signPayload';
import { postJson } from './postJson';
import { PRIVATE_ADDRESS_ERROR_CODE } from './publicOnlyLookup';

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
  /**
   * Connect to private and loopback addresses too (development and tests). Otherwise a name
   * must resolve, at connection time, to public addresses only. Default false.
   */
  readonly allowPrivate?: boolean;
  /**
   * Send through this fetch instead (with `redirect: 'manual'`); the address check at
   * connection time is then the fetch's business. Default: node:http(s) with keep-alive.
   */
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
 * after `timeoutMs`, and only a 2xx counts as delivered. Unless `allowPrivate`, the connection
 * is only made to public addresses (checked as the name resolves, so DNS rebinding cannot slip
 * a private address in). Never throws for a receiver problem: the outcome says what happened.
 * Callers check the URL's form first (`validateWebhookUrl`).
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
  allowPrivate = false,
  fetch: viaFetch,
}: DeliverWebhookParameters): Promise<DeliverWebhookReturnType> {
  const signature = await signPayload({
    rawBody: body,
    keys,
    timestamp: Math.floor(now.getTime() / 1000),
  });
  const headers = {
    'Content-Type': 'application/json',
    'User-Agent': 'YieldRouter-Webhooks/1',
    [WEBHOOK_SIGNATURE_HEADER]: signature,
    [WEBHOOK_EVENT_ID_HEADER]: eventId,
    [WEBHOOK_EVENT_TYPE_HEADER]: eventType,
  };
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const status = viaFetch
      ? await sendWithFetch(viaFetch, url, headers, body, timeoutMs)
      : await postJson({ url, headers, body, timeoutMs, allowPrivate });
    const latencyMs = elapsed();
    if (status >= 200 && status < 300) return { ok: true, status, latencyMs, error: null };
    const error =
      status >= 300 && status < 400 ? `redirect not followed (HTTP ${status})` : `HTTP ${status}`;
    return { ok: false, status, latencyMs, error };
  } catch (error) {
    return { ok: false, status: null, latencyMs: elapsed(), error: describe(error, timeoutMs) };
  }
}

async function sendWithFetch(
  send: typeof fetch,
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<number> {
  const response = await send(url, {
    method: 'POST',
    headers,
    body,
    redirect: 'manual',
    signal: AbortSignal.timeout(timeoutMs),
  });
  // The answer's body is not needed; dropping it frees the connection.
  await response.body?.cancel().catch(() => undefined);
  return response.status;
}

function describe(error: unknown, timeoutMs: number): string {
  const name = (error as { name?: unknown }).name;
  if (name === 'TimeoutError' || name === 'AbortError') return `timed out after ${timeoutMs} ms`;
  const own = (error as { code?: unknown }).code;
  if (own === PRIVATE_ADDRESS_ERROR_CODE) {
    return 'url refused: host resolves to a private, loopback, link-local or reserved address';
  }
  // node:http errors carry their code; fetch wraps the socket error as its cause.
  if (typeof own === 'string') return `connection failed: ${own}`;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  const detail = code ?? (typeof cause?.message === 'string' ? cause.message : String(error));
  return `connection failed: ${detail}`.slice(0, MAX_ERROR_LENGTH);
}
