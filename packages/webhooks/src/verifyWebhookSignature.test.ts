import { buildTestHeader } from './buildTestHeader';
import { DEFAULT_TOLERANCE_SECONDS, WEBHOOK_SIGNATURE_HEADER } from './constants';
import { signPayload } from './signPayload';
import { verifyWebhookSignature } from './verifyWebhookSignature';

const KEY = 'whk_live_current';
const OLD_KEY = 'whk_live_previous';
const T = 1_767_225_600;
const NOW = T * 1000 + 250; // the receiver's clock, in milliseconds
const BODY = '{"type":"deposit.settled","id":"evt_1","amountMicros":"1000000"}';

describe('verifyWebhookSignature', () => {
  it('accepts a delivery signed with the key', async () => {
    const header = await signPayload({ rawBody: BODY, keys: [KEY], timestamp: T });
    await expect(
      verifyWebhookSignature({ header, rawBody: BODY, key: KEY, now: NOW }),
    ).resolves.toEqual({ ok: true, timestamp: T });
    // The same bytes as a Buffer (what express.raw() gives) verify too.
    await expect(
      verifyWebhookSignature({ header, rawBody: Buffer.from(BODY), key: [KEY], now: NOW }),
    ).resolves.toEqual({ ok: true, timestamp: T });
  });

  it('exports the header name and the 300 s default', () => {
    expect(WEBHOOK_SIGNATURE_HEADER).toBe('X-SVC-Signature');
    expect(DEFAULT_TOLERANCE_SECONDS).toBe(300);
  });

  describe('key rotation', () => {
    it('a delivery signed with both keys verifies with either, or with both', async () => {
      const header = await signPayload({ rawBody: BODY, keys: [KEY, OLD_KEY], timestamp: T });
      expect(header.match(/v1=/g)).toHaveLength(2);
      for (const key of [KEY, OLD_KEY, [KEY, OLD_KEY], [OLD_KEY, KEY], ['other', OLD_KEY]]) {
        await expect(
          verifyWebhookSignature({ header, rawBody: BODY, key, now: NOW }),
        ).resolves.toEqual({ ok: true, timestamp: T });
      }
    });

    it('a receiver holding both keys accepts a delivery signed with either', async () => {
      for (const signingKey of [KEY, OLD_KEY]) {
        const header = await signPayload({ rawBody: BODY, keys: [signingKey], timestamp: T });
        await expect(
          verifyWebhookSignature({ header, rawBody: BODY, key: [KEY, OLD_KEY], now: NOW }),
        ).resolves.toMatchObject({ ok: true });
      }
    });

    it('a key that signed nothing does not verify', async () => {
      const header = await signPayload({ rawBody: BODY, keys: [KEY, OLD_KEY], timestamp: T });
      await expect(
        verifyWebhookSignature({ header, rawBody: BODY, key: ['whk_other'], now: NOW }),
      ).resolves.toEqual({ ok: false, reason: 'no_matching_signature' });
    });
  });

  describe('tolerance window', () => {
    const at = async (nowSeconds: number, toleranceSeconds?: number) =>
      verifyWebhookSignature({
        header: await signPayload({ rawBody: BODY, keys: [KEY], timestamp: T }),
        rawBody: BODY,
        key: KEY,
        now: nowSeconds * 1000,
        ...(toleranceSeconds === undefined ? {} : { toleranceSeconds }),
      });
    const outside = { ok: false, reason: 'timestamp_outside_tolerance' };

    it('accepts up to 300 s either way, inclusive', async () => {
      await expect(at(T + 300)).resolves.toMatchObject({ ok: true });
      await expect(at(T - 300)).resolves.toMatchObject({ ok: true });
    });

    it('rejects a delivery that is too old (a replay)', async () => {
      await expect(at(T + 301)).resolves.toEqual(outside);
      await expect(at(T + 86_400)).resolves.toEqual(outside);
    });

    it('rejects a timestamp too far in the future', async () => {
      await expect(at(T - 301)).resolves.toEqual(outside);
    });

    it('honours a custom tolerance', async () => {
      await expect(at(T + 10, 10)).resolves.toMatchObject({ ok: true });
      await expect(at(T + 11, 10)).resolves.toEqual(outside);
      await expect(at(T + 1, 0)).resolves.toEqual(outside);
    });

    it('defaults now to the clock', async () => {
      const header = await buildTestHeader({ rawBody: BODY, key: KEY });
      await expect(verifyWebhookSignature({ header, rawBody: BODY, key: KEY })).resolves.toEqual({
        ok: true,
        timestamp: expect.any(Number),
      });
      const stale = await buildTestHeader({
        rawBody: BODY,
        key: KEY,
        timestamp: Math.floor(Date.now() / 1000) - 3600,
      });
      await expect(
        verifyWebhookSignature({ header: stale, rawBody: BODY, key: KEY }),
      ).resolves.toEqual(outside);
    });
  });

  describe('tampering', () => {
    it('a changed body does not verify', async () => {
      const header = await signPayload({ rawBody: BODY, keys: [KEY], timestamp: T });
      for (const rawBody of [
        BODY.replace('1000000', '9000000'),
        `${BODY} `,
        BODY.slice(0, -1),
        '',
        // Re-serialized JSON: same data, different bytes.
        JSON.stringify(JSON.parse(BODY), null, 2),
      ]) {
        await expect(
          verifyWebhookSignature({ header, rawBody, key: KEY, now: NOW }),
        ).resolves.toEqual({ ok: false, reason: 'no_matching_signature' });
      }
    });

    it('a changed timestamp does not verify, even inside the window', async () => {
      const header = await signPayload({ rawBody: BODY, keys: [KEY], timestamp: T });
      for (const forged of [T + 1, T - 1, T + 60]) {
        await expect(
          verifyWebhookSignature({
            header: header.replace(`t=${T}`, `t=${forged}`),
            rawBody: BODY,
            key: KEY,
            now: NOW,
          }),
        ).resolves.toEqual({ ok: false, reason: 'no_matching_signature' });
      }
    });

    it('a changed or foreign signature does not verify', async () => {
      const header = await signPayload({ rawBody: BODY, keys: [KEY], timestamp: T });
      const signature = header.slice(header.indexOf('v1=') + 3);
      const flipped = (signature[0] === '0' ? '1' : '0') + signature.slice(1);
      const foreign = await signPayload({ rawBody: BODY, keys: ['attacker'], timestamp: T });
      for (const forged of [header.replace(signature, flipped), foreign]) {
        await expect(
          verifyWebhookSignature({ header: forged, rawBody: BODY, key: KEY, now: NOW }),
        ).resolves.toEqual({ ok: false, reason: 'no_matching_signature' });
      }
    });
  });

  describe('malformed headers', () => {
    it.each([
      undefined,
      null,
      '',
      'garbage',
      `v1=${'a'.repeat(64)}`,
      `t=${T}`,
      `t=${T}.5,v1=${'a'.repeat(64)}`,
      `t=${T},v1=abc`,
    ])('%p → malformed_header', async (header) => {
      await expect(
        verifyWebhookSignature({ header, rawBody: BODY, key: KEY, now: NOW }),
      ).resolves.toEqual({ ok: false, reason: 'malformed_header' });
    });

    it('tolerates whitespace and unknown schemes in a genuine header', async () => {
      const header = await signPayload({ rawBody: BODY, keys: [KEY], timestamp: T });
      const spaced = ` v0=${'0'.repeat(64)} , ${header.split(',').join(' ,  ')} `;
      await expect(
        verifyWebhookSignature({ header: spaced, rawBody: BODY, key: KEY, now: NOW }),
      ).resolves.toEqual({ ok: true, timestamp: T });
    });
  });

  describe('bad options', () => {
    it('no key or an empty key is a programmer error: it rejects', async () => {
      const header = await signPayload({ rawBody: BODY, keys: [KEY], timestamp: T });
      for (const key of [[], '', [KEY, '']]) {
        await expect(verifyWebhookSignature({ header, rawBody: BODY, key })).rejects.toThrow(
          TypeError,
        );
      }
      // Even when the header is malformed: the configuration error must not hide behind it.
      await expect(
        verifyWebhookSignature({ header: undefined, rawBody: BODY, key: [] }),
      ).rejects.toThrow(TypeError);
    });

    it('a negative or NaN tolerance and a NaN clock fail closed', async () => {
      const header = await signPayload({ rawBody: BODY, keys: [KEY], timestamp: T });
      for (const options of [
        { toleranceSeconds: -1, now: T * 1000 },
        { toleranceSeconds: Number.NaN, now: T * 1000 },
        { now: Number.NaN },
      ]) {
        await expect(
          verifyWebhookSignature({ header, rawBody: BODY, key: KEY, ...options }),
        ).resolves.toEqual({ ok: false, reason: 'timestamp_outside_tolerance' });
      }
    });
  });
});
