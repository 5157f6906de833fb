import { signPayload } from './signPayload';

export interface BuildTestHeaderParameters {
  /** The exact body your test will send. */
  readonly rawBody: string | Uint8Array;
  /** The hmacKey your receiver is configured with (or several, to test a rotation). */
  readonly key: string | readonly string[];
  /** Whole unix seconds. Default: now. */
  readonly timestamp?: number;
}

/**
 * Builds a valid `X-SVC-Signature` value for a body, for testing your webhook receiver
 * without a real delivery.
 *
 * @example
 * const body = JSON.stringify({ type: 'deposit.settled' });
 * const header = await buildTestHeader({ rawBody: body, key: 'test-hmac-key' });
 * await request(app)
 *   .post('/webhooks')
 *   .set(WEBHOOK_SIGNATURE_HEADER, header)
 *   .set('content-type', 'application/json')
 *   .send(body);
 */
export async function buildTestHeader({
  rawBody,
  key,
  timestamp = Math.floor(Date.now() / 1000),
}: BuildTestHeaderParameters): Promise<string> {
  return signPayload({ rawBody, keys: typeof key === 'string' ? [key] : key, timestamp });
}
