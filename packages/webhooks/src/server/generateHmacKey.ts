import { randomBytes } from 'node:crypto';

/**
 * A new subscription signing key: `whsec_` followed by 32 random bytes in base64url (256 bits).
 * It is shown to the owner once and stored only encrypted ({@link createHmacKeyCipher}).
 *
 * @example
 * const hmacKey = generateHmacKey(); // 'whsec_3q2-…' (49 characters)
 */
export function generateHmacKey(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}
