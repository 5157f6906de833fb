import { createTestDatabase } from './testing';
import type { TestDatabase } from './testing';
import { insertOutboxEvents } from './legs';
import { claimDueDeliveries, recordDeliveryAttempts } from './webhookDeliveries';
import { readWebhookEventsPage } from './webhookEvents';
import { fanOutOutbox } from './webhookFanOut';
import { insertWebhookSubscription, newWebhookSubscriptionId } from './webhookSubscriptions';

let test: TestDatabase;
let mine: string;
let theirs: string;
let ids: string[];
const t0 = new Date('2026-02-01T10:00:00Z');

beforeAll(async () => {
  test = await createTestDatabase();
  const prisma = test.db;
  const subscribe = async (ownerKeyId: string, wallets: string[]) =>
    (
      await insertWebhookSubscription(prisma, {
        id: newWebhookSubscriptionId(),
        ownerKeyId,
        wallets,
        url: 'https://hooks.example.com/',
        eventTypes: ['deposit.settled', 'apy.updated'],
        description: null,
        keySealed: 'v1.sealed',
        now: t0,
      })
    ).id;
  mine = await subscribe('key_mine', ['W1']);
  theirs = await subscribe('key_theirs', ['*']);
  ids = await prisma.transaction((tx) =>
    insertOutboxEvents(
      tx,
      [
        { type: 'deposit.settled', wallet: 'W1', payload: { n: 0 } },
        { type: 'deposit.settled', wallet: 'W2', payload: { n: 1 } },
        { type: 'apy.updated', wallet: null, payload: { n: 2 } },
        { type: 'deposit.settled', wallet: 'W1', payload: { n: 3 } },
        { type: 'position.updated', wallet: 'W1', payload: { n: 4 } },
      ],
      t0,
    ),
  );
  await fanOutOutbox(prisma, { limit: 100, now: t0 });
  // One attempt on the first delivery of each subscription.
  for (const claimed of await claimDueDeliveries(prisma, { now: t0, leaseMs: 1000, limit: 10 })) {
    await recordDeliveryAttempts(prisma, [
      {
        deliveryId: claimed.id,
        claimToken: claimed.claimToken,
        startedAt: t0,
        httpStatus: 503,
        latencyMs: 7,
        error: 'HTTP 503',
        outcome: { status: 'pending', nextAttemptAt: new Date(t0.getTime() + 10_000) },
      },
    ]);
  }
});
afterAll(() => test.drop());

const page = (
  viewer: { wallets: string[]; ownerKeyId: string | null },
  options: Partial<Parameters<typeof readWebhookEventsPage>[2]> = {},
) => readWebhookEventsPage(test.db, viewer, { limit: 50, ...options });

describe('readWebhookEventsPage', () => {
  it("an owner sees its wallets' events and market-wide ones, newest first, with its deliveries only", async () => {
    const { events, next } = await page({ wallets: ['W1'], ownerKeyId: 'key_mine' });
    expect(next).toBeNull();
    expect(events.map((event) => event.id)).toEqual([ids[4], ids[3], ids[2], ids[0]]);
    expect(events.flatMap((event) => event.deliveries.map((d) => d.subscriptionId))).toEqual([
      mine,
      mine,
      mine,
    ]);
    const first = events.find((event) => event.id === ids[0]);
    expect(first?.payload).toEqual({ n: 0 });
    expect(first?.deliveries[0]).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: 'HTTP 503',
      attemptLog: [{ attempt: 1, startedAt: t0, httpStatus: 503, latencyMs: 7, error: 'HTTP 503' }],
    });
  });

  it('an agent sees every delivery of its wallets’ events, none of market-wide ones', async () => {
    const { events } = await page({ wallets: ['W1'], ownerKeyId: null });
    const first = events.find((event) => event.id === ids[0]);
    expect(first?.deliveries.map((d) => d.subscriptionId).sort()).toEqual([mine, theirs].sort());
    expect(events.find((event) => event.id === ids[2])?.deliveries).toEqual([]);
  });

  it('`*` sees every wallet; filters by type and wallet', async () => {
    expect((await page({ wallets: ['*'], ownerKeyId: 'key_theirs' })).events).toHaveLength(5);
    const deposits = await page({ wallets: ['*'], ownerKeyId: null }, { type: 'deposit.settled' });
    expect(deposits.events.map((event) => event.id)).toEqual([ids[3], ids[1], ids[0]]);
    const w2 = await page({ wallets: ['*'], ownerKeyId: null }, { wallet: 'W2' });
    expect(w2.events.map((event) => event.id)).toEqual([ids[1]]);
    // A wallet filter never widens the scope.
    expect((await page({ wallets: ['W1'], ownerKeyId: null }, { wallet: 'W2' })).events).toEqual(
      [],
    );
  });

  it('pages with a cursor until the end', async () => {
    const seen: string[] = [];
    let before: bigint | undefined;
    for (;;) {
      const result = await page(
        { wallets: ['*'], ownerKeyId: null },
        { limit: 2, ...(before === undefined ? {} : { beforeSeq: before }) },
      );
      seen.push(...result.events.map((event) => event.id));
      if (result.next === null) break;
      before = result.next;
    }
    expect(seen).toEqual([...ids].reverse());
  });
});
