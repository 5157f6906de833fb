import {
  buildTestHeader,
  DEFAULT_TOLERANCE_SECONDS,
  parseSignatureHeader,
  verifyWebhookSignature,
  WEBHOOK_SIGNATURE_HEADER,
} from './webhooks';

// The webhook helpers (`@yieldrouter/sdk/webhooks`) come from the internal @yieldrouter/webhooks
// package, bundled into that entry of the SDK.
describe('webhook verification helpers', () => {
  const rawBody = '{"type":"deposit.settled","amountMicros":"1000000"}';

  it('a test header built for a body verifies against that body and key', async () => {
    const header = await buildTestHeader({ rawBody, key: 'whk_test' });
    expect(parseSignatureHeader(header)).toMatchObject({ ok: true });
    await expect(verifyWebhookSignature({ header, rawBody, key: 'whk_test' })).resolves.toEqual({
      ok: true,
      timestamp: expect.any(Number),
    });
    await expect(
      verifyWebhookSignature({ header, rawBody: `${rawBody}\n`, key: 'whk_test' }),
    ).resolves.toEqual({ ok: false, reason: 'no_matching_signature' });
    await expect(verifyWebhookSignature({ header, rawBody, key: 'whk_other' })).resolves.toEqual({
      ok: false,
      reason: 'no_matching_signature',
    });
  });

  it('exports the header name and the default tolerance', () => {
    expect(WEBHOOK_SIGNATURE_HEADER).toBe('X-SVC-Signature');
    expect(DEFAULT_TOLERANCE_SECONDS).toBe(300);
  });
});
