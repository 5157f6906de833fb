import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { WebhookKeyError } from './webhookKeyError';

/** Seals and opens subscription signing keys at rest. */
export interface HmacKeyCipher {
  /** `v1.<iv>.<ciphertext>.<tag>` (base64url), bound to the subscription id. */
  encrypt(hmacKey: string, subscriptionId: string): string;
  /** The key sealed for that subscription; throws {@link WebhookKeyError} otherwise. */
  decrypt(sealed: string, subscriptionId: string): string;
}

/** Shortest server secret accepted, in characters. */
export const MIN_WEBHOOK_KEY_SECRET_LENGTH = 32;

const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';
// Domain separation: the same server secret can also hash API keys without the two uses
// ever sharing a derived key.
const SALT = 'yieldrouter/webhooks';
const INFO = 'hmac-key-encryption/v1';

/**
 * AES-256-GCM for subscription signing keys, keyed by HKDF-SHA256 of the server secret. The
 * subscription id is the additional authenticated data, so a sealed key copied onto another
 * subscription row does not open. The API (which creates and rotates keys) and the keeper (which
 * signs deliveries) must be given the same secret.
 *
 * @example
 * const cipher = createHmacKeyCipher(config.webhookKeySecret);
 * const sealed = cipher.encrypt(hmacKey, 'whk_…');
 * cipher.decrypt(sealed, 'whk_…') === hmacKey; // true
 */
export function createHmacKeyCipher(secret: string): HmacKeyCipher {
  if (secret.length < MIN_WEBHOOK_KEY_SECRET_LENGTH) {
    throw new RangeError(
      `webhooks: the key secret must be at least ${MIN_WEBHOOK_KEY_SECRET_LENGTH} characters`,
    );
  }
  const key = Buffer.from(hkdfSync('sha256', secret, SALT, INFO, 32));
  return {
    encrypt(hmacKey, subscriptionId) {
      const iv = randomBytes(12);
      const cipher = createCipheriv(ALGORITHM, key, iv);
      cipher.setAAD(Buffer.from(subscriptionId, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(hmacKey, 'utf8'), cipher.final()]);
      return [VERSION, iv, ciphertext, cipher.getAuthTag()]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    decrypt(sealed, subscriptionId) {
      const [version, iv, ciphertext, tag, ...rest] = sealed.split('.');
      if (version !== VERSION || !iv || !ciphertext || !tag || rest.length > 0) {
        throw new WebhookKeyError('webhooks: not a sealed signing key');
      }
      try {
        // A full 16-byte tag only: a truncated tag would weaken the authentication.
        const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(iv, 'base64url'), {
          authTagLength: 16,
        });
        decipher.setAAD(Buffer.from(subscriptionId, 'utf8'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([
          decipher.update(Buffer.from(ciphertext, 'base64url')),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        // Never echo the sealed value or the cause: both are secret-adjacent.
        throw new WebhookKeyError(
          'webhooks: the signing key cannot be opened (another server secret, or altered)',
        );
      }
    },
  };
}
