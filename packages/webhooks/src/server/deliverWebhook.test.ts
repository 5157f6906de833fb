import { createServer } from 'node:net';
import { verifyWebhookSignature } from '../verifyWebhookSignature';
import { startTestReceiver } from '../testing/startTestReceiver';
import type { TestReceiver } from '../testing/startTestReceiver';
import { deliverWebhook } from './deliverWebhook';

const KEY = 'whsec_current-key';
const OLD_KEY = 'whsec_previous-key';
const BODY = JSON.stringify({ id: 'evt_1', type: 'deposit.settled', data: { amountMicros: '5' } });

let receiver: TestReceiver;
beforeEach(async () => {
  receiver = await startTestReceiver({ keys: [KEY] });
});
afterEach(() => receiver.close());

const deliver = (overrides: Partial<Parameters<typeof deliverWebhook>[0]> = {}) =>
  deliverWebhook({
    url: receiver.url(),
    body: BODY,
    eventId: 'evt_1',
    eventType: 'deposit.settled',
    keys: [KEY],
    now: new Date(),
    timeoutMs: 2000,
    allowPrivate: true,
    ...overrides,
  });

describe('deliverWebhook', () => {
  it('POSTs the exact body with a signature the verification helper accepts', async () => {
    const outcome = await deliver();
    expect(outcome).toEqual({ ok: true, status: 204, latencyMs: expect.any(Number), error: null });
    const [received] = receiver.deliveries;
    expect(received).toMatchObject({ rawBody: BODY, verified: true, signatureCount: 1 });
    expect(received?.headers).toMatchObject({
      'content-type': 'application/json',
      'x-svc-event-id': 'evt_1',
      'x-svc-event-type': 'deposit.settled',
    });
    expect(received?.headers['x-svc-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  });

  it('signs with every key given (rotation overlap): either key alone verifies', async () => {
    await deliver({ keys: [KEY, OLD_KEY] });
    const [received] = receiver.deliveries;
    expect(received?.signatureCount).toBe(2);
    for (const key of [KEY, OLD_KEY]) {
      const check = await verifyWebhookSignature({
        header: String(received?.headers['x-svc-signature']),
        rawBody: received?.rawBody ?? '',
        key,
      });
      expect(check.ok).toBe(true);
    }
  });

  it('uses the given clock for t=', async () => {
    const now = new Date('2026-03-01T12:00:00.900Z');
    await deliver({ now });
    expect(receiver.deliveries[0]?.headers['x-svc-signature']).toMatch(
      new RegExp(`^t=${Math.floor(now.getTime() / 1000)},`),
    );
  });

  it('a non-2xx answer is a failure with its status', async () => {
    await receiver.setMode(500);
    expect(await deliver()).toMatchObject({ ok: false, status: 500, error: 'HTTP 500' });
  });

  it('does not follow redirects: a 3xx is a failure and the target is never asked', async () => {
    await receiver.setMode(302);
    expect(await deliver()).toMatchObject({
      ok: false,
      status: 302,
      error: 'redirect not followed (HTTP 302)',
    });
    expect(receiver.deliveries.map((delivery) => delivery.path)).toEqual(['/hooks']);
  });

  it('times out a receiver that never answers', async () => {
    await receiver.setMode('hang');
    const outcome = await deliver({ timeoutMs: 300 });
    expect(outcome).toMatchObject({ ok: false, status: null, error: 'timed out after 300 ms' });
    expect(outcome.latencyMs).toBeGreaterThanOrEqual(250);
    expect(outcome.latencyMs).toBeLessThan(10_000); // it never answers: the timeout ended it
  });

  it('a refused connection is a failure that names the cause, never the URL or keys', async () => {
    await receiver.setMode('refuse');
    const outcome = await deliver();
    expect(outcome).toMatchObject({ ok: false, status: null });
    expect(outcome.error).toBe('connection failed: ECONNREFUSED');
  });

  it('a server that accepts and closes without answering is a failure', async () => {
    const silent = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const outcome = await deliver({ url: `http://127.0.0.1:${port}/` });
      expect(outcome).toMatchObject({ ok: false, status: null });
      expect(outcome.error).toMatch(/^connection failed: /);
      expect(outcome.error).not.toContain(KEY);
    } finally {
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('without allowPrivate, never connects to a private address, literal or resolved', async () => {
    for (const url of [receiver.url(), receiver.url().replace('127.0.0.1', 'localhost')]) {
      expect(await deliver({ url, allowPrivate: false })).toMatchObject({
        ok: false,
        status: null,
        error: 'url refused: host resolves to a private, loopback, link-local or reserved address',
      });
    }
    expect(receiver.deliveries).toEqual([]);
  });

  it('reuses connections (keep-alive) across deliveries', async () => {
    for (let index = 0; index < 5; index += 1) expect((await deliver()).ok).toBe(true);
    const ports = new Set(receiver.deliveries.map((delivery) => delivery.remotePort));
    expect(ports.size).toBe(1);
  });

  it('uses an injected fetch', async () => {
    const fetch = jest.fn(async () => new Response(null, { status: 200 }));
    expect(await deliver({ fetch, url: 'https://hooks.example.com/' })).toMatchObject({ ok: true });
    expect(fetch).toHaveBeenCalledWith(
      'https://hooks.example.com/',
      expect.objectContaining({ method: 'POST', redirect: 'manual', body: BODY }),
    );
  });
});
