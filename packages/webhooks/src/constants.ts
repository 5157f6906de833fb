/**
 * The request header that carries a delivery's signature: `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`.
 * HTTP header names are case-insensitive; read it with your framework's header lookup.
 *
 * @example
 * const header = request.headers.get(WEBHOOK_SIGNATURE_HEADER);
 */
export const WEBHOOK_SIGNATURE_HEADER = 'X-SVC-Signature';

/**
 * How far (in seconds, either way) a delivery's signed timestamp may be from the receiver's
 * clock before {@link verifyWebhookSignature} rejects it as a possible replay.
 *
 * @example
 * await verifyWebhookSignature({ header, rawBody, key, toleranceSeconds: DEFAULT_TOLERANCE_SECONDS });
 */
export const DEFAULT_TOLERANCE_SECONDS = 300;
