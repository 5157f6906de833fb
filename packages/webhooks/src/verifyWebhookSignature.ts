import { computeSignatures } from './computeSignatures';
import { DEFAULT_TOLERANCE_SECONDS } from './constants';
import { parseSignatureHeader } from './parseSignatureHeader';
import { timingSafeEqual } from './timingSafeEqual';
import { toKeyList } from './toKeyList';

export interface VerifyWebhookSignatureParameters {
  /** The `X-SVC-Signature` header as received (missing → `malformed_header`). */
  readonly header: string | null | undefined;
  /**
   * The request body exactly as received: the bytes (`express.raw()`, `await request.text()`
   * or `arrayBuffer()`), never `JSON.stringify` of a parsed body — re-serializing changes the
   * bytes and the signature no longer matches.
   */
  readonly rawBody: string | Uint8Array;
  /** The subscription's hmacKey, or several while a rotation overlaps (any may match). */
  readonly key: string | readonly string[];
  /** Allowed distance between the signed timestamp and `now`, either way. Default 300. */
  readonly toleranceSeconds?: number;
  /** The receiver's clock in milliseconds. Default `Date.now()`. */
  readonly now?: number;
}

export type WebhookVerificationFailureReason =
  'malformed_header' | 'timestamp_outside_tolerance' | 'no_matching_signature';

export type VerifyWebhookSignatureReturnType =
  | { readonly ok: true; readonly timestamp: number }
  | { readonly ok: false; readonly reason: WebhookVerificationFailureReason };

/**
 * Checks a webhook delivery: some `v1` signature in the header must equal the HMAC-SHA256 of
 * `${t}.${rawBody}` under some provided key (compared in constant time), and `t` must be
 * within `toleranceSeconds` of `now`. Returns a result instead of throwing; it rejects only on
 * a programmer error (no key, or an empty key).
 *
 * @example
 * const result = await verifyWebhookSignature({
 *   header: req.get(WEBHOOK_SIGNATURE_HEADER),
 *   rawBody: req.body, // Buffer from express.raw({ type: 'application/json' })
 *   key: hmacKey, // or [newHmacKey, oldHmacKey] while a rotation overlaps
 * });
 * if (!result.ok) return res.status(400).send(result.reason);
 */
export async function verifyWebhookSignature({
  header,
  rawBody,
  key,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
  now = Date.now(),
}: VerifyWebhookSignatureParameters): Promise<VerifyWebhookSignatureReturnType> {
  const keys = toKeyList(key);
  const parsed = parseSignatureHeader(header);
  if (!parsed.ok) return { ok: false, reason: 'malformed_header' };

  const expected = await computeSignatures(keys, parsed.timestamp, rawBody);
  let matched = false;
  for (const candidate of expected) {
    for (const signature of parsed.signatures) {
      matched = timingSafeEqual(candidate, signature) || matched;
    }
  }
  if (!matched) return { ok: false, reason: 'no_matching_signature' };

  // Checked after the signature, so this reason is only given for genuine deliveries. Written
  // to fail closed: a NaN clock or a negative tolerance rejects instead of accepting.
  if (!(Math.abs(Math.floor(now / 1000) - parsed.timestamp) <= toleranceSeconds)) {
    return { ok: false, reason: 'timestamp_outside_tolerance' };
  }
  return { ok: true, timestamp: parsed.timestamp };
}
