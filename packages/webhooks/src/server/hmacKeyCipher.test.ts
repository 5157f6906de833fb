import { createHmacKeyCipher } from './hmacKeyCipher';
import { generateHmacKey } from './generateHmacKey';
import { WebhookKeyError } from './webhookKeyError';

const SECRET = 'test-webhook-secret-test-webhook-secret';
const SUBSCRIPTION = 'whk_0123456789abcdef0123456789abcdef';

describe('createHmacKeyCipher', () => {
  const cipher = createHmacKeyCipher(SECRET);

  it('round-trips a key; the sealed form never contains it and differs every time', () => {
    const key = generateHmacKey();
    const a = cipher.encrypt(key, SUBSCRIPTION);
    const b = cipher.encrypt(key, SUBSCRIPTION);
    expect(a).not.toBe(b);
    expect(a).not.toContain(key.slice(6));
    expect(a).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(cipher.decrypt(a, SUBSCRIPTION)).toBe(key);
    expect(cipher.decrypt(b, SUBSCRIPTION)).toBe(key);
  });

  it('refuses another subscription, another secret, or an altered value', () => {
    const sealed = cipher.encrypt(generateHmacKey(), SUBSCRIPTION);
    expect(() => cipher.decrypt(sealed, 'whk_ffffffffffffffffffffffffffffffff')).toThrow(
      WebhookKeyError,
    );
    const other = createHmacKeyCipher(`${SECRET}-other`);
    expect(() => other.decrypt(sealed, SUBSCRIPTION)).toThrow(WebhookKeyError);
    const [version, iv, data, tag] = sealed.split('.') as [string, string, string, string];
    const flipped = `${data.startsWith('A') ? 'B' : 'A'}${data.slice(1)}`;
    expect(() => cipher.decrypt([version, iv, flipped, tag].join('.'), SUBSCRIPTION)).toThrow(
      WebhookKeyError,
    );
    // A truncated tag is refused rather than checked on fewer bytes.
    const short = [version, iv, data, tag.slice(0, 6)].join('.');
    expect(() => cipher.decrypt(short, SUBSCRIPTION)).toThrow(WebhookKeyError);
    expect(() => cipher.decrypt('plain-text-key', SUBSCRIPTION)).toThrow(WebhookKeyError);
  });

  it('error messages never carry the sealed value', () => {
    const sealed = cipher.encrypt(generateHmacKey(), SUBSCRIPTION);
    try {
      createHmacKeyCipher(`${SECRET}-other`).decrypt(sealed, SUBSCRIPTION);
    } catch (error) {
      expect(String(error)).not.toContain(sealed);
    }
  });

  it('wants a secret of at least 32 characters', () => {
    expect(() => createHmacKeyCipher('short')).toThrow(RangeError);
  });

  it('generates 256-bit keys', () => {
    const key = generateHmacKey();
    expect(key).toMatch(/^whsec_[\w-]{43}$/);
    expect(Buffer.from(key.slice(6), 'base64url')).toHaveLength(32);
  });
});
