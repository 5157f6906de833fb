import fc from 'fast-check';
import { signPayload } from './signPayload';
import { verifyWebhookSignature } from './verifyWebhookSignature';

const key = fc.string({ unit: 'binary', minLength: 1, maxLength: 80 });
const timestamp = fc.integer({ min: 0, max: 4_102_444_800 }); // up to 2100-01-01

describe('sign → verify', () => {
  it('verifies for any body, key and timestamp; flipping any one body byte breaks it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 512 }),
        key,
        timestamp,
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        async (body, hmacKey, t, position, mask) => {
          const header = await signPayload({ rawBody: body, keys: [hmacKey], timestamp: t });
          const now = t * 1000;
          const verified = await verifyWebhookSignature({
            header,
            rawBody: body,
            key: hmacKey,
            now,
          });
          expect(verified).toEqual({ ok: true, timestamp: t });

          const tampered = Uint8Array.from(body);
          const index = position % tampered.length;
          tampered[index] = (tampered[index] ?? 0) ^ mask;
          const rejected = await verifyWebhookSignature({
            header,
            rawBody: tampered,
            key: hmacKey,
            now,
          });
          expect(rejected).toEqual({ ok: false, reason: 'no_matching_signature' });
        },
      ),
    );
  });

  it('verifies string bodies, and their UTF-8 bytes, for any key pair in a rotation', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        key,
        key,
        timestamp,
        async (body, newKey, oldKey, t) => {
          const header = await signPayload({ rawBody: body, keys: [newKey, oldKey], timestamp: t });
          for (const [rawBody, verifyKey] of [
            [body, newKey],
            [new TextEncoder().encode(body), oldKey],
          ] as const) {
            await expect(
              verifyWebhookSignature({ header, rawBody, key: verifyKey, now: t * 1000 }),
            ).resolves.toEqual({ ok: true, timestamp: t });
          }
        },
      ),
    );
  });
});
