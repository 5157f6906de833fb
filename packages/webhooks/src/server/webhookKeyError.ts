/** A stored signing key that cannot be opened: wrong server secret, or a tampered value. */
export class WebhookKeyError extends Error {
  override readonly name = 'WebhookKeyError';
}
