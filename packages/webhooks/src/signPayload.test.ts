import { createHmac } from 'node:crypto';
import { signPayload } from './signPayload';

// The reference: node:crypto, independent of the Web Crypto code under test.
const referenceHex = (key: string, message: Buffer | string) =>
  createHmac('sha256', Buffer.from(key, 'utf8')).update(message).digest('hex');

const TIMESTAMP = 1_767_225_600;

describe('signPayload', () => {
  it('matches HMAC-SHA256 over `${t}.${rawBody}` computed with node:crypto', async () => {
    const rawBody = '{"type":"deposit.settled","amountMicros":"1000000"}';
    const key = 'whk_test_0123456789';
    const header = await signPayload({ rawBody, keys: [key], timestamp: TIMESTAMP });
    expect(header).toBe(`t=${TIMESTAMP},v1=${referenceHex(key, `${TIMESTAMP}.${rawBody}`)}`);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  });

  it('keys and non-ASCII bodies are UTF-8; byte bodies are signed as they are', async () => {
    const key = 'clé-🔑';
    const rawBody = '{"note":"café ☕"}';
    const bytes = new Uint8Array([0x7b, 0xff, 0x00, 0xc3, 0x7d]); // not valid UTF-8
    const expectedText = referenceHex(key, `${TIMESTAMP}.${rawBody}`);
    const expectedBytes = referenceHex(
      key,
      Buffer.concat([Buffer.from(`${TIMESTAMP}.`), Buffer.from(bytes)]),
    );
    await expect(signPayload({ rawBody, keys: [key], timestamp: TIMESTAMP })).resolves.toBe(
      `t=${TIMESTAMP},v1=${expectedText}`,
    );
    await expect(
      signPayload({
        rawBody: new TextEncoder().encode(rawBody),
        keys: [key],
        timestamp: TIMESTAMP,
      }),
    ).resolves.toBe(`t=${TIMESTAMP},v1=${expectedText}`);
    await expect(signPayload({ rawBody: bytes, keys: [key], timestamp: TIMESTAMP })).resolves.toBe(
      `t=${TIMESTAMP},v1=${expectedBytes}`,
    );
  });

  it('signs with every key during a rotation overlap, in order', async () => {
    const header = await signPayload({ rawBody: '{}', keys: ['new', 'old'], timestamp: 0 });
    expect(header).toBe(`t=0,v1=${referenceHex('new', '0.{}')},v1=${referenceHex('old', '0.{}')}`);
  });

  it('rejects programmer errors: no key, an empty key, a timestamp that is not unix seconds', async () => {
    await expect(signPayload({ rawBody: '{}', keys: [], timestamp: TIMESTAMP })).rejects.toThrow(
      TypeError,
    );
    await expect(
      signPayload({ rawBody: '{}', keys: ['ok', ''], timestamp: TIMESTAMP }),
    ).rejects.toThrow(TypeError);
    for (const timestamp of [1.5, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(signPayload({ rawBody: '{}', keys: ['k'], timestamp })).rejects.toThrow(
        RangeError,
      );
    }
  });
});
