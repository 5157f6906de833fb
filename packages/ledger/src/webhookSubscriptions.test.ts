import { createTestDatabase } from './testing';
import type { TestDatabase } from './testing';
import { insertOutboxEvents } from './legs';
import { fanOutOutbox } from './webhookFanOut';
import {
  deleteWebhookSubscription,
  insertWebhookSubscription,
  listWebhookSubscriptions,
  newWebhookSubscriptionId,
  rotateWebhookSubscriptionKey,
} from './webhookSubscriptions';

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

const now = new Date('2026-02-01T10:00:00Z');
const subscribe = (ownerKeyId: string, extra: { url?: string; at?: Date } = {}) =>
  insertWebhookSubscription(test.db, {
    id: newWebhookSubscriptionId(),
    ownerKeyId,
    wallets: ['W1'],
    url: extra.url ?? 'https://hooks.example.com/a',
    eventTypes: ['deposit.settled'],
    description: null,
    keySealed: 'v1.sealed-current',
    now: extra.at ?? now,
  });

describe('webhook subscriptions', () => {
  it('lists an owner its own live subscriptions, oldest first, never a key', async () => {
    const b = await subscribe('key_owner_a', { at: new Date(now.getTime() + 1000) });
    const a = await subscribe('key_owner_a');
    await subscribe('key_owner_b');
    const listed = await listWebhookSubscriptions(test.db, 'key_owner_a');
    expect(listed.map((row) => row.id)).toEqual([a.id, b.id]);
    expect(JSON.stringify(listed)).not.toContain('sealed');
    expect(a.id).toMatch(/^whk_[0-9a-f]{32}$/);
  });

  it('rotation keeps the replaced key as the previous one until the overlap ends', async () => {
    const sub = await subscribe('key_owner_r');
    const later = new Date(now.getTime() + 60_000);
    const rotated = await rotateWebhookSubscriptionKey(test.db, {
      id: sub.id,
      ownerKeyId: 'key_owner_r',
      keySealed: 'v1.sealed-new',
      overlapMs: 3_600_000,
      now: later,
    });
    expect(rotated).toMatchObject({
      id: sub.id,
      rotatedAt: later,
      previousKeyExpiresAt: new Date(later.getTime() + 3_600_000),
    });
    const row = await test.db.webhookSubscription.findUniqueOrThrow({
      where: { id: sub.id },
    });
    expect([row.keySealed, row.previousKeySealed]).toEqual(['v1.sealed-new', 'v1.sealed-current']);
    // Another owner cannot rotate it.
    expect(
      await rotateWebhookSubscriptionKey(test.db, {
        id: sub.id,
        ownerKeyId: 'key_someone_else',
        keySealed: 'v1.x',
        overlapMs: 0,
        now: later,
      }),
    ).toBeNull();
  });

  it('deleting ends pending deliveries; only the owner can, once', async () => {
    const sub = await subscribe('key_owner_d');
    await test.db.transaction((tx) =>
      insertOutboxEvents(tx, [{ type: 'deposit.settled', wallet: 'W1', payload: {} }], now),
    );
    const { deliveryIds } = await fanOutOutbox(test.db, { limit: 100, now });
    expect(deliveryIds.length).toBeGreaterThan(0);
    const ownerless = { id: sub.id, ownerKeyId: 'key_someone_else', now };
    expect(await deleteWebhookSubscription(test.db, ownerless)).toBeNull();
    const owned = { id: sub.id, ownerKeyId: 'key_owner_d', now };
    expect(await deleteWebhookSubscription(test.db, owned)).toEqual(now);
    expect(await deleteWebhookSubscription(test.db, owned)).toBeNull();
    const deliveries = await test.db.webhookDelivery.findMany({
      where: { subscriptionId: sub.id },
    });
    expect(deliveries.map((row) => [row.status, row.lastError])).toEqual([
      ['failed', 'subscription deleted'],
    ]);
    expect(await listWebhookSubscriptions(test.db, 'key_owner_d')).toEqual([]);
  });

  it('the database refuses unknown event types and malformed ids', async () => {
    await expect(
      insertWebhookSubscription(test.db, {
        id: newWebhookSubscriptionId(),
        ownerKeyId: 'k',
        wallets: [],
        url: 'https://x.example.com',
        eventTypes: ['deposit.settled', 'nope' as never],
        description: null,
        keySealed: 'v1.x',
        now,
      }),
    ).rejects.toThrow();
    await expect(
      insertWebhookSubscription(test.db, {
        id: 'whk_short',
        ownerKeyId: 'k',
        wallets: [],
        url: 'https://x.example.com',
        eventTypes: ['deposit.settled'],
        description: null,
        keySealed: 'v1.x',
        now,
      }),
    ).rejects.toThrow();
  });

  it('a subscription may name every type, auto_pay.paid (0023), plan.divergence (0045) and plan.simulated (0068) among them', async () => {
    const every = [
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
    ] as const;
    const subscription = {
      ownerKeyId: 'k-all',
      wallets: [],
      url: 'https://x.example.com',
      description: null,
      keySealed: 'v1.x',
      now,
    };
    await insertWebhookSubscription(test.db, {
      ...subscription,
      id: newWebhookSubscriptionId(),
      eventTypes: [...every],
    });
    await expect(
      insertWebhookSubscription(test.db, {
        ...subscription,
        id: newWebhookSubscriptionId(),
        eventTypes: [...every, 'auto_pay.paid'],
      }),
    ).rejects.toThrow();
  });

  it('a deletion racing a relay still ends the deliveries the relay created', async () => {
    const sub = await subscribe('key_owner_race');
    await test.db.transaction((tx) =>
      insertOutboxEvents(tx, [{ type: 'deposit.settled', wallet: 'W1', payload: {} }], now),
    );
    let deletion: Promise<Date | null> | undefined;
    await test.db.transaction(async (tx) => {
      const relayed = await fanOutOutbox(tx, { limit: 100, now });
      expect(relayed.deliveryIds.length).toBeGreaterThan(0);
      // The deletion starts while the relay's transaction is still open, and waits for it.
      deletion = deleteWebhookSubscription(test.db, {
        id: sub.id,
        ownerKeyId: 'key_owner_race',
        now,
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
    });
    expect(await deletion).toEqual(now);
    const deliveries = await test.db.webhookDelivery.findMany({
      where: { subscriptionId: sub.id },
    });
    expect(deliveries.map((row) => row.status)).toEqual(['failed']);
  });
});
