import { createTestDatabase } from './testing';
import type { TestDatabase } from './testing';
import type { OutboxEventInput } from './legs';
import { insertOutboxEvents } from './legs';
import { fanOutOutbox } from './webhookFanOut';
import { insertWebhookSubscription, newWebhookSubscriptionId } from './webhookSubscriptions';
import type { InsertWebhookSubscriptionInput } from './webhookSubscriptions';

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());
beforeEach(async () => {
  await test.db.$executeRaw`
    TRUNCATE webhook_attempts, webhook_deliveries, webhook_subscriptions, outbox_events`;
});

const now = new Date('2026-02-01T10:00:00Z');
const prisma = () => test.db;

async function subscribe(
  fields: Partial<Pick<InsertWebhookSubscriptionInput, 'wallets' | 'eventTypes'>> = {},
) {
  const row = await insertWebhookSubscription(prisma(), {
    id: newWebhookSubscriptionId(),
    ownerKeyId: 'key_owner',
    wallets: fields.wallets ?? ['*'],
    url: 'https://hooks.example.com/',
    eventTypes: fields.eventTypes ?? ['deposit.settled', 'position.updated', 'apy.updated'],
    description: null,
    keySealed: 'v1.sealed',
    now,
  });
  return row.id;
}

const emit = (events: OutboxEventInput[]) =>
  prisma().transaction((tx) => insertOutboxEvents(tx, events, now));

async function deliveriesOf(subscriptionId: string) {
  const rows = await prisma().webhookDelivery.findMany({
    where: { subscriptionId },
    orderBy: { seq: 'asc' },
    include: { event: true },
  });
  return rows.map((row) => row.event.id);
}

describe('fanOutOutbox', () => {
  it('one delivery per matching live subscription, by type and wallet scope', async () => {
    const all = await subscribe();
    const w1 = await subscribe({ wallets: ['W1'] });
    const depositsOnly = await subscribe({ eventTypes: ['deposit.settled'] });
    const deleted = await subscribe();
    await prisma().webhookSubscription.update({ where: { id: deleted }, data: { deletedAt: now } });
    const [d1, p1, d2, apy] = await emit([
      { type: 'deposit.settled', wallet: 'W1', payload: { n: 1 } },
      { type: 'position.updated', wallet: 'W1', payload: { n: 2 } },
      { type: 'deposit.settled', wallet: 'W2', payload: { n: 3 } },
      { type: 'apy.updated', wallet: null, payload: { n: 4 } },
    ]);
    const result = await fanOutOutbox(prisma(), { limit: 100, now });
    expect(result.events).toBe(4);
    expect(await deliveriesOf(all)).toEqual([d1, p1, d2, apy]);
    // A wallet-scoped subscription still gets events without a wallet.
    expect(await deliveriesOf(w1)).toEqual([d1, p1, apy]);
    expect(await deliveriesOf(depositsOnly)).toEqual([d1, d2]);
    expect(await deliveriesOf(deleted)).toEqual([]);
    expect(result.deliveryIds).toHaveLength(4 + 3 + 2);
    const unrelayed = await prisma().outboxEvent.count({ where: { relayedAt: null } });
    expect(unrelayed).toBe(0);
    // Nothing left: a second relay does nothing.
    expect(await fanOutOutbox(prisma(), { limit: 100, now })).toEqual({
      events: 0,
      deliveryIds: [],
    });
  });

  it('takes events in outbox order, `limit` at a time', async () => {
    const sub = await subscribe();
    const ids = await emit(
      Array.from({ length: 7 }, (_, n) => ({
        type: 'deposit.settled' as const,
        wallet: 'W1',
        payload: { n },
      })),
    );
    expect((await fanOutOutbox(prisma(), { limit: 3, now })).events).toBe(3);
    expect(await deliveriesOf(sub)).toEqual(ids.slice(0, 3));
    expect((await fanOutOutbox(prisma(), { limit: 3, now })).events).toBe(3);
    expect((await fanOutOutbox(prisma(), { limit: 3, now })).events).toBe(1);
    expect(await deliveriesOf(sub)).toEqual(ids);
  });

  it('events nobody subscribed to are marked relayed with no delivery', async () => {
    await emit([{ type: 'bridge.failed', wallet: 'W1', payload: {} }]);
    expect(await fanOutOutbox(prisma(), { limit: 10, now })).toEqual({
      events: 1,
      deliveryIds: [],
    });
  });

  it('concurrent relays: every event relayed once, deliveries in outbox order', async () => {
    const sub = await subscribe();
    const ids = await emit(
      Array.from({ length: 60 }, (_, n) => ({
        type: 'position.updated' as const,
        wallet: `W${n % 3}`,
        payload: { n },
      })),
    );
    let relayed = 0;
    for (let round = 0; round < 20 && relayed < ids.length; round += 1) {
      const results = await Promise.all(
        Array.from({ length: 4 }, () => fanOutOutbox(prisma(), { limit: 7, now })),
      );
      relayed += results.reduce((sum, result) => sum + result.events, 0);
    }
    expect(relayed).toBe(ids.length);
    expect(await deliveriesOf(sub)).toEqual(ids);
  });
});
