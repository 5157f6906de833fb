import { buildTestHeader } from './buildTestHeader';
import { signPayload } from './signPayload';
import { verifyWebhookSignature } from './verifyWebhookSignature';

describe('buildTestHeader', () => {
  it('produces the header signPayload would, for one key or several', async () => {
    await expect(buildTestHeader({ rawBody: '{}', key: 'k', timestamp: 42 })).resolves.toBe(
      await signPayload({ rawBody: '{}', keys: ['k'], timestamp: 42 }),
    );
    await expect(
      buildTestHeader({ rawBody: '{}', key: ['k1', 'k2'], timestamp: 42 }),
    ).resolves.toBe(await signPayload({ rawBody: '{}', keys: ['k1', 'k2'], timestamp: 42 }));
  });

  it('stamps the current time by default, so the header verifies now', async () => {
    const before = Math.floor(Date.now() / 1000);
    const header = await buildTestHeader({ rawBody: '{"a":1}', key: 'k' });
    const t = Number(/^t=(\d+),/.exec(header)?.[1]);
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    await expect(
      verifyWebhookSignature({ header, rawBody: '{"a":1}', key: 'k' }),
    ).resolves.toMatchObject({ ok: true });
  });

  it('rejects an empty key list', async () => {
    await expect(buildTestHeader({ rawBody: '{}', key: [] })).rejects.toThrow(TypeError);
  });
});
