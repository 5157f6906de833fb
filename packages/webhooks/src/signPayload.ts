import { computeSignatures } from './computeSignatures';
import { toKeyList } from './toKeyList';

export interface SignPayloadParameters {
  /** The exact body that will be sent: a string (sent as UTF-8) or its bytes. */
  readonly rawBody: string | Uint8Array;
  /** The subscription's hmacKeys; during a rotation overlap, the new and the old one. */
  readonly keys: readonly string[];
  /** Whole unix seconds. */
  readonly timestamp: number;
}

/**
 * Signs a webhook delivery: returns the `X-SVC-Signature` value
 * `t=<timestamp>,v1=<hex>[,v1=<hex>…]`, one `v1` per key, each the lowercase hex
 * HMAC-SHA256 of `${timestamp}.${rawBody}` keyed with the UTF-8 bytes of the key.
 * Rejects (a programmer error) on an empty key list, an empty key or a non-integer timestamp.
 *
 * @example
 * const header = await signPayload({
 *   rawBody: body,
 *   keys: [newHmacKey, oldHmacKey],
 *   timestamp: Math.floor(Date.now() / 1000),
 * }); // 't=1767225600,v1=5f0c…,v1=9a41…'
 */
export async function signPayload({
  rawBody,
  keys,
  timestamp,
}: SignPayloadParameters): Promise<string> {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new RangeError('webhooks: timestamp must be whole unix seconds');
  }
  const signatures = await computeSignatures(toKeyList(keys), timestamp, rawBody);
  return [`t=${timestamp}`, ...signatures.map((signature) => `v1=${signature}`)].join(',');
}
