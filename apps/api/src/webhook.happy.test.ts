import request from 'supertest';
import { deliverDue, relayOutbox } from '@yieldrouter/engine';
import { insertOutboxEvents } from '@yieldrouter/ledger';
import {
  WebhookEventTypesDocument,
  WebhookEventsPage,
  WebhookList,
  WebhookWithKey,
} from '@yieldrouter/schemas';
import { verifyWebhookSignature } from '@yieldrouter/webhooks';
import { createHmacKeyCipher } from '@yieldrouter/webhooks/server';
import { startTestReceiver } from '@yieldrouter/webhooks/testing';
import type { TestReceiver } from '@yieldrouter/webhooks/testing';
import type { TestApp } from './testing/startTestApp';
import { OTHER_WALLET, TEST_WALLET, startTestApp, testKeys } from './testing/startTestApp';

// Subscribe through the API, let the keeper's two jobs (relay, deliver) run, and read the
// events page: the receiver checks every signature with the key the create call returned.

const KEY_SECRET = 'webhook-key-secret-for-the-api-tests-0001';
let t: TestApp;
let receiver: TestReceiver;
beforeAll(async () => {
  receiver = await startTestReceiver();
  t = await startTestApp({
    SVC_WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    SVC_WEBHOOK_KEY_SECRET: KEY_SECRET,
    SVC_WEBHOOK_ROTATION_OVERLAP_SECONDS: '3600',
  });
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const owner = (path: string) => ({
  get: () => request(t.app).get(`/api/v1${path}`).set('X-API-Key', testKeys.owner),
  post: (body?: object) =>
    request(t.app).post(`/api/v1${path}`).set('X-API-Key', testKeys.owner).send(body),
  delete: () => request(t.app).delete(`/api/v1${path}`).set('X-API-Key', testKeys.owner),
});

/** Payloads as the engine writes them (the events page checks them against their schemas). */
const leg = (wallet: string, n: number) => ({
  planId: `plan_${n}`,
  legIndex: 0,
  chain: 'base',
  wallet,
  txId: `0x${String(n).padStart(64, '0')}`,
});
const deposit = (wallet: string, n: number) => ({
  type: 'deposit.settled' as const,
  wallet,
  payload: {
    ...leg(wallet, n),
    opportunityId: null,
    venueId: null,
    quotedAmountMicros: '1000000',
    amountMicros: '1000000',
  },
});
const position = (wallet: string, n: number) => ({
  type: 'position.updated' as const,
  wallet,
  payload: { ...leg(wallet, n), cause: 'settled', harvestId: null },
});
const apy = {
  type: 'apy.updated' as const,
  wallet: null,
  payload: {
    venueId: 'morpho',
    opportunityId: 'svcop0123456789abcdef01234567',
    chain: 'base',
    grossApyBps: 512,
    previousGrossApyBps: 498,
    source: 'defillama',
    asOf: new Date().toISOString(),
  },
};

/** The keeper's side: relay the outbox, then send what is due (same secret as the API). */
const keeper = async () => {
  await relayOutbox(t.db);
  return deliverDue(t.db, {
    cipher: createHmacKeyCipher(KEY_SECRET),
    urlPolicy: { allowInsecure: true, allowPrivate: true },
    timeoutMs: 2000,
  });
};

describe('webhooks over HTTP', () => {
  it('lists the event types publicly', async () => {
    const res = await request(t.app).get('/api/v1/svc/webhooks/events/types').expect(200);
    const document = WebhookEventTypesDocument.parse(res.body);
    expect(document.eventTypes.map((entry) => entry.type)).toEqual([
      'deposit.settled',
      'withdraw.settled',
      'harvest.completed',
      'bridge.delivered',
      'bridge.failed',
      'position.updated',
      'apy.updated',
      'reconciliation.drift',
      'auto_pay.paid',
      'plan.divergence',
      'plan.simulated',
    ]);
  });

  it('create → deliveries verify with the returned key → rotate (both keys) → delete', async () => {
    const created = WebhookWithKey.parse(
      (
        await owner('/svc/webhooks')
          .post({
            url: receiver.url('/svc-events'),
            eventTypes: ['deposit.settled', 'apy.updated'],
            description: 'treasury bot',
          })
          .expect(201)
      ).body,
    );
    expect(created).toMatchObject({ wallets: [TEST_WALLET], description: 'treasury bot' });
    receiver.setKeys([created.hmacKey]);
    const listed = WebhookList.parse((await owner('/svc/webhooks').get().expect(200)).body);
    expect(listed.webhooks.map((webhook) => webhook.id)).toEqual([created.id]);

    // Events: this wallet's, another wallet's (never sent here), a market-wide one.
    const [mine, , market] = await t.db.transaction((tx) =>
      insertOutboxEvents(tx, [deposit(TEST_WALLET, 1), deposit(OTHER_WALLET, 2), apy], new Date()),
    );
    expect(await keeper()).toMatchObject({ delivered: 2 });
    expect(receiver.accepted().map((delivery) => delivery.eventId)).toEqual([mine, market]);
    expect(receiver.accepted().every((delivery) => delivery.verified)).toBe(true);

    const rotated = WebhookWithKey.parse(
      (await owner(`/svc/webhooks/${created.id}/rotate`).post().expect(200)).body,
    );
    expect(rotated.hmacKey).not.toBe(created.hmacKey);
    const overlapEnds = Date.parse(rotated.previousKeyExpiresAt ?? '');
    expect(overlapEnds - Date.parse(rotated.rotatedAt ?? '')).toBe(3_600_000);
    await t.db.transaction((tx) => insertOutboxEvents(tx, [deposit(TEST_WALLET, 3)], new Date()));
    await keeper();
    const during = receiver.deliveries.at(-1);
    expect(during?.signatureCount).toBe(2);
    for (const key of [created.hmacKey, rotated.hmacKey]) {
      const check = await verifyWebhookSignature({
        header: String(during?.headers['x-svc-signature']),
        rawBody: during?.rawBody ?? '',
        key,
      });
      expect(check.ok).toBe(true);
    }

    const deleted = await owner(`/svc/webhooks/${created.id}`).delete().expect(200);
    expect(deleted.body).toMatchObject({ id: created.id, deleted: true });
    expect((await owner('/svc/webhooks').get().expect(200)).body.webhooks).toEqual([]);
  });

  it('the events page: scoped to the key, each event with its deliveries and attempts, paged', async () => {
    const created = WebhookWithKey.parse(
      (
        await owner('/svc/webhooks')
          .post({ url: receiver.url('/paged'), eventTypes: ['position.updated'] })
          .expect(201)
      ).body,
    );
    receiver.setKeys([created.hmacKey]);
    await receiver.setMode(500);
    const [first, second] = await t.db.transaction((tx) =>
      insertOutboxEvents(
        tx,
        [position(TEST_WALLET, 4), position(TEST_WALLET, 5), position(OTHER_WALLET, 6)],
        new Date(),
      ),
    );
    expect(await keeper()).toMatchObject({ retrying: 1, delivered: 0 });

    const pageOf = async (key: string, query: Record<string, string>) =>
      WebhookEventsPage.parse(
        (
          await request(t.app)
            .get('/api/v1/svc/webhooks/events')
            .query(query)
            .set('X-API-Key', key)
            .expect(200)
        ).body,
      );
    const page = await pageOf(testKeys.owner, { type: 'position.updated' });
    expect(page.events.map((entry) => entry.event.id)).toEqual([second, first]);
    const head = page.events[1];
    expect(head?.event).toMatchObject({ type: 'position.updated', data: leg(TEST_WALLET, 4) });
    expect(head?.wallet).toBe(TEST_WALLET);
    expect(head?.deliveries).toEqual([
      expect.objectContaining({
        subscriptionId: created.id,
        status: 'pending',
        attemptCount: 1,
        lastError: 'HTTP 500',
        attempts: [expect.objectContaining({ attempt: 1, httpStatus: 500, error: 'HTTP 500' })],
      }),
    ]);
    expect(head?.deliveries[0]?.nextAttemptAt).not.toBeNull();
    expect(page.events[0]?.deliveries[0]).toMatchObject({ status: 'pending', attemptCount: 0 });

    // An agent of the same wallet sees the same events and deliveries; never a key.
    const agentPage = await pageOf(testKeys.agent, { type: 'position.updated' });
    expect(agentPage.events.map((entry) => entry.event.id)).toEqual([second, first]);
    expect(JSON.stringify(agentPage)).not.toContain(created.hmacKey);

    // Cursor pagination, one at a time.
    const one = await pageOf(testKeys.owner, { type: 'position.updated', limit: '1' });
    expect(one.events.map((entry) => entry.event.id)).toEqual([second]);
    const two = await pageOf(testKeys.owner, {
      type: 'position.updated',
      limit: '1',
      cursor: one.nextCursor ?? '',
    });
    expect(two.events.map((entry) => entry.event.id)).toEqual([first]);
    expect(two.nextCursor).toBeNull();
    await receiver.setMode(204);
  });
});
