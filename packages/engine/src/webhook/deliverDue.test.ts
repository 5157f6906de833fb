import { verifyWebhookSignature } from '@yieldrouter/webhooks';
import { WEBHOOK_MAX_ATTEMPTS } from '@yieldrouter/webhooks/server';
import { WebhookEvent } from '@yieldrouter/schemas';
import type { ReceivedDelivery } from '@yieldrouter/webhooks/testing';
import { deliverOne } from './deliverOne';
import { rotateWebhook } from './rotateWebhook';
import { startWebhookFixture } from './testing/webhookFixture';
import type { WebhookFixture } from './testing/webhookFixture';

const T0 = new Date('2026-03-01T12:00:00.000Z');
const MIN = 60_000;
const H = 60 * MIN;

let f: WebhookFixture;
beforeEach(async () => {
  f = await startWebhookFixture(T0);
});
afterEach(() => f.close());

const positions = (wallet: string, count: number, from = 0) =>
  Array.from({ length: count }, (_, index) => ({
    type: 'position.updated' as const,
    wallet,
    payload: { n: from + index },
  }));

/** The event ids a receiver path accepted, in arrival order. */
const acceptedAt = (path: string) =>
  f.receiver
    .accepted()
    .filter((delivery) => delivery.path === path)
    .map((delivery) => delivery.eventId);

/** Runs the delivery job at the clock, moving the clock to the next due time, until idle. */
async function drain(maxRounds = 50) {
  for (let round = 0; round < maxRounds; round += 1) {
    const result = await f.deliver();
    if (result.attempts.length > 0) continue;
    // Nothing was due: jump to the earliest retry (only heads are ever tried, so a pending
    // delivery with attempts is a head waiting for its retry).
    const next = await f.test.db.webhookDelivery.findFirst({
      where: { status: 'pending', attempts: { gt: 0 } },
      orderBy: { nextAttemptAt: 'asc' },
    });
    if (!next) return;
    f.setNow(next.nextAttemptAt);
  }
  throw new Error('deliveries did not drain');
}

describe('deliverDue', () => {
  it('POSTs the envelope, signed so the verification helper accepts it', async () => {
    const { hmacKey } = await f.subscribe({ wallets: ['W1'], eventTypes: ['position.updated'] });
    const [eventId] = await f.emit(positions('W1', 1));
    expect(await f.relay()).toBe(1);
    const result = await f.deliver();
    expect(result).toMatchObject({ delivered: 1, retrying: 0, failed: 0, released: 0 });
    const [received] = f.receiver.deliveries as ReceivedDelivery[];
    expect(received).toMatchObject({ verified: true, signatureCount: 1, eventId });
    expect(received?.headers['x-svc-event-type']).toBe('position.updated');
    expect(received?.body).toEqual({
      id: eventId,
      type: 'position.updated',
      schemaVersion: 'svc-webhook-event.v1',
      createdAt: T0.toISOString(),
      data: { n: 0 },
    });
    const check = await verifyWebhookSignature({
      header: String(received?.headers['x-svc-signature']),
      rawBody: received?.rawBody ?? '',
      key: hmacKey,
      now: T0.getTime(),
    });
    expect(check).toEqual({ ok: true, timestamp: T0.getTime() / 1000 });
    const delivery = await f.test.db.webhookDelivery.findFirstOrThrow({
      include: { attemptLog: true },
    });
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 1, deliveredAt: T0 });
    expect(delivery.attemptLog).toEqual([
      expect.objectContaining({ attempt: 1, httpStatus: 204, error: null, startedAt: T0 }),
    ]);
    // Nothing left to send.
    expect((await f.deliver()).attempts).toEqual([]);
  });

  it('receiver down (refusing, then 500) then up: every event arrives, in creation order per subscription', async () => {
    await f.subscribe({ wallets: ['W1'], eventTypes: ['position.updated'], path: '/a' });
    await f.subscribe({ wallets: ['*'], eventTypes: ['position.updated'], path: '/b' });
    await f.receiver.setMode('refuse');
    const first = await f.emit(positions('W1', 4));
    const second = await f.emit(positions('W2', 3, 4));
    await f.relay();

    // Down: each subscription's head is tried, fails, and holds the line for its retry.
    const down = await f.deliver();
    expect(down).toMatchObject({ delivered: 0, retrying: 2, failed: 0 });
    expect(down.attempts.map((attempt) => attempt.error)).toEqual([
      'connection failed: ECONNREFUSED',
      'connection failed: ECONNREFUSED',
    ]);
    expect(await f.test.db.webhookAttempt.count()).toBe(2);
    // More events while it is down; a later one is never sent ahead of the stuck head.
    const third = await f.emit(positions('W1', 2, 7));
    await f.relay();
    expect((await f.deliver()).attempts).toEqual([]);

    // An hour of retries against a receiver that answers 500.
    await f.receiver.setMode(500);
    for (let elapsed = 0; elapsed < H; elapsed += 10 * MIN) {
      f.advance(10 * MIN);
      const result = await f.deliver();
      expect(result.delivered).toBe(0);
    }
    expect(f.receiver.accepted()).toEqual([]);

    // Up again: the backlog drains, oldest first.
    await f.receiver.setMode(204);
    await drain();
    expect(acceptedAt('/a')).toEqual([...first, ...third]);
    expect(acceptedAt('/b')).toEqual([...first, ...second, ...third]);
    expect(f.receiver.accepted().every((delivery) => delivery.verified)).toBe(true);
    const failedTries = f.receiver.deliveries.filter((delivery) => delivery.answered === 500);
    // Only heads were retried while it was down: never an event behind them.
    expect(new Set(failedTries.map((delivery) => delivery.eventId))).toEqual(new Set([first[0]]));
    const statuses = await f.test.db.webhookDelivery.groupBy({
      by: ['status'],
      _count: true,
    });
    expect(statuses).toEqual([{ status: 'delivered', _count: 6 + 9 }]);
  });

  it('rotation: both keys sign during the overlap window, only the new one after it', async () => {
    const { id, hmacKey: oldKey } = await f.subscribe({
      wallets: ['W1'],
      eventTypes: ['position.updated'],
    });
    const rotated = await rotateWebhook({
      db: f.test.db,
      cipher: f.sender.cipher,
      ownerKeyId: 'key_owner',
      id,
      overlapMs: H,
      now: f.now(),
    });
    expect(rotated.previousKeyExpiresAt).toBe(new Date(T0.getTime() + H).toISOString());
    f.receiver.setKeys([rotated.hmacKey]);
    const verifiesWith = async (delivery: ReceivedDelivery | undefined, key: string) =>
      (
        await verifyWebhookSignature({
          header: String(delivery?.headers['x-svc-signature']),
          rawBody: delivery?.rawBody ?? '',
          key,
          now: f.now().getTime(),
        })
      ).ok;

    f.advance(30 * MIN);
    await f.emit(positions('W1', 1));
    await f.relay();
    await f.deliver();
    const during = f.receiver.deliveries[0];
    expect(during?.signatureCount).toBe(2);
    expect(await verifiesWith(during, rotated.hmacKey)).toBe(true);
    expect(await verifiesWith(during, oldKey)).toBe(true);

    f.advance(31 * MIN);
    await f.emit(positions('W1', 1));
    await f.relay();
    await f.deliver();
    const after = f.receiver.deliveries[1];
    expect(after?.signatureCount).toBe(1);
    expect(await verifiesWith(after, rotated.hmacKey)).toBe(true);
    expect(await verifiesWith(after, oldKey)).toBe(false);
  });

  it('concurrent delivery jobs: every event delivered exactly once, in order', async () => {
    const paths = ['/s0', '/s1', '/s2'];
    for (const path of paths) {
      await f.subscribe({ wallets: ['*'], eventTypes: ['position.updated'], path });
    }
    const ids = await f.emit(positions('W1', 20));
    await f.relay();
    for (let round = 0; round < 20 && f.receiver.accepted().length < 60; round += 1) {
      await Promise.all(
        Array.from({ length: 6 }, () => f.deliver({ perSubscription: 3, limit: 2 })),
      );
    }
    expect(f.receiver.deliveries).toHaveLength(60);
    for (const path of paths) expect(acceptedAt(path)).toEqual(ids);
  });

  it('a receiver that never recovers: the schedule runs out and the delivery fails for good', async () => {
    await f.subscribe({ wallets: ['W1'], eventTypes: ['position.updated'] });
    await f.receiver.setMode(503);
    const [stuck, next] = await f.emit(positions('W1', 2));
    await f.relay();
    await drain(200);
    const rows = await f.test.db.webhookDelivery.findMany({
      orderBy: { seq: 'asc' },
      include: { event: true },
    });
    expect(rows.map((row) => [row.event.id, row.status])).toEqual([
      [stuck, 'failed'],
      [next, 'failed'],
    ]);
    expect(rows[0]?.attempts).toBe(WEBHOOK_MAX_ATTEMPTS);
    expect(rows[0]?.lastError).toBe('HTTP 503');
    // The second waited behind the first for ~24 h: it got what was left of the window.
    expect(rows[1]?.attempts).toBeLessThan(WEBHOOK_MAX_ATTEMPTS);
    expect(f.now().getTime() - T0.getTime()).toBeLessThanOrEqual(24 * H);
  });

  it('re-checks the URL before every attempt', async () => {
    await f.subscribe({ wallets: ['W1'], eventTypes: ['position.updated'] });
    await f.emit(positions('W1', 1));
    await f.relay();
    const result = await f.deliver({ urlPolicy: { allowInsecure: false, allowPrivate: false } });
    expect(result.attempts[0]).toMatchObject({
      status: 'pending',
      httpStatus: null,
      error: 'url refused: must use https',
    });
    expect(f.receiver.deliveries).toEqual([]);
  });

  it('deliverOne sends only the head, once', async () => {
    await f.subscribe({ wallets: ['W1'], eventTypes: ['position.updated'] });
    await f.emit(positions('W1', 2));
    await f.relay();
    const [head, behind] = await f.test.db.webhookDelivery.findMany({
      orderBy: { seq: 'asc' },
    });
    const db = f.test.db;
    expect(await deliverOne(db, behind?.id ?? '', f.sender)).toMatchObject({ status: 'skipped' });
    const both = await Promise.all([
      deliverOne(db, head?.id ?? '', f.sender),
      deliverOne(db, head?.id ?? '', f.sender),
    ]);
    expect(both.map((result) => result.status).sort()).toEqual(['delivered', 'skipped']);
    expect(await deliverOne(db, behind?.id ?? '', f.sender)).toMatchObject({
      status: 'delivered',
    });
    expect(f.receiver.accepted()).toHaveLength(2);
  });

  it('every body is a valid envelope of its type', async () => {
    await f.subscribe({ wallets: ['*'], eventTypes: ['apy.updated'] });
    await f.emit([
      {
        type: 'apy.updated',
        wallet: null,
        payload: {
          venueId: 'morpho',
          opportunityId: 'svcop0123456789abcdef01234567',
          chain: 'base',
          previousApyBps: null,
          apyBps: 512,
          apyBaseBps: 500,
          apyRewardBps: 12,
          reason: null,
          source: 'defillama',
          asOf: T0.toISOString(),
        },
      },
    ]);
    await f.relay();
    await f.deliver();
    expect(WebhookEvent.safeParse(f.receiver.deliveries[0]?.body).success).toBe(true);
  });
});
