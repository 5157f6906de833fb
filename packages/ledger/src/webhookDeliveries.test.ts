import { createTestDatabase } from './testing';
import type { TestDatabase } from './testing';
import { insertOutboxEvents } from './legs';
import {
  claimDelivery,
  claimDueDeliveries,
  recordDeliveryAttempts,
  releaseDeliveries,
} from './webhookDeliveries';
import type { ClaimedDelivery, DeliveryOutcome } from './webhookDeliveries';
import { fanOutOutbox } from './webhookFanOut';
import { insertWebhookSubscription, newWebhookSubscriptionId } from './webhookSubscriptions';

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());
beforeEach(async () => {
  await test.db.$executeRaw`
    TRUNCATE webhook_attempts, webhook_deliveries, webhook_subscriptions, outbox_events`;
});

const t0 = new Date('2026-02-01T10:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);
const LEASE = 60_000;
const prisma = () => test.db;

/** `subscriptions` subscriptions, each with its own wallet and `events` events, relayed. */
async function seed(subscriptions: number, events: number) {
  const subs: string[] = [];
  for (let s = 0; s < subscriptions; s += 1) {
    const row = await insertWebhookSubscription(prisma(), {
      id: newWebhookSubscriptionId(),
      ownerKeyId: 'key_owner',
      wallets: [`W${s}`],
      url: `https://hooks.example.com/${s}`,
      eventTypes: ['position.updated'],
      description: null,
      keySealed: 'v1.sealed',
      now: t0,
    });
    subs.push(row.id);
  }
  await prisma().transaction((tx) =>
    insertOutboxEvents(
      tx,
      Array.from({ length: events }, (_, n) =>
        subs.map((_sub, s) => ({
          type: 'position.updated' as const,
          wallet: `W${s}`,
          payload: { n },
        })),
      ).flat(),
      t0,
    ),
  );
  const { deliveryIds } = await fanOutOutbox(prisma(), { limit: 10_000, now: t0 });
  const bySub = new Map<string, string[]>();
  for (const delivery of await prisma().webhookDelivery.findMany({ orderBy: { seq: 'asc' } })) {
    bySub.set(delivery.subscriptionId, [
      ...(bySub.get(delivery.subscriptionId) ?? []),
      delivery.id,
    ]);
  }
  expect(deliveryIds).toHaveLength(subscriptions * events);
  return subs.map((id) => ({ id, deliveries: bySub.get(id) ?? [] }));
}

const claim = (now: Date, perSubscription = 1, limit = 100) =>
  claimDueDeliveries(prisma(), { now, leaseMs: LEASE, limit, perSubscription });

const record = async (claimed: ClaimedDelivery, outcome: DeliveryOutcome, startedAt = t0) => {
  const [recorded] = await recordDeliveryAttempts(prisma(), [
    {
      deliveryId: claimed.id,
      claimToken: claimed.claimToken,
      startedAt,
      httpStatus: outcome.status === 'delivered' ? 204 : 500,
      latencyMs: 12,
      error: outcome.status === 'delivered' ? null : 'HTTP 500',
      outcome,
    },
  ]);
  return recorded ?? null;
};

describe('claimDueDeliveries', () => {
  it('serves a subscription head first: nothing behind a pending head is sent', async () => {
    const [sub] = await seed(1, 3);
    const [d1, d2] = sub?.deliveries ?? [];
    const first = await claim(t0);
    expect(first.map((row) => row.id)).toEqual([d1]);
    expect(first[0]).toMatchObject({
      attempts: 0,
      url: 'https://hooks.example.com/0',
      keySealed: 'v1.sealed',
      event: { type: 'position.updated', wallet: 'W0', payload: { n: 0 } },
    });
    // Leased head: nobody else gets it, and nothing behind it.
    expect(await claim(t0)).toEqual([]);
    expect(
      await record(first[0] as ClaimedDelivery, { status: 'pending', nextAttemptAt: at(10_000) }),
    ).toBe(1);
    // Waiting for its retry, it still holds the line.
    expect(await claim(at(5_000))).toEqual([]);
    const retry = await claim(at(10_000));
    expect(retry.map((row) => [row.id, row.attempts])).toEqual([[d1, 1]]);
    expect(await record(retry[0] as ClaimedDelivery, { status: 'delivered' }, at(10_000))).toBe(2);
    expect((await claim(at(10_000))).map((row) => row.id)).toEqual([d2]);
  });

  it('a run: the head and what follows, in order; the unsent rest is given back', async () => {
    const [sub] = await seed(1, 5);
    const ids = sub?.deliveries ?? [];
    const run = await claim(t0, 3);
    expect(run.map((row) => row.id)).toEqual(ids.slice(0, 3));
    expect(new Set(run.map((row) => row.claimToken)).size).toBe(1);
    expect(await record(run[0] as ClaimedDelivery, { status: 'delivered' })).toBe(1);
    expect(
      await releaseDeliveries(prisma(), {
        deliveryIds: run.slice(1).map((row) => row.id),
        claimToken: run[0]?.claimToken ?? '',
      }),
    ).toBe(2);
    expect((await claim(t0, 10)).map((row) => row.id)).toEqual(ids.slice(1));
  });

  it('a lease that passed is claimable again; the old holder can no longer record', async () => {
    const [sub] = await seed(1, 1);
    const [stale] = await claim(t0);
    expect(await claim(at(LEASE - 1))).toEqual([]);
    const [fresh] = await claim(at(LEASE));
    expect(fresh?.id).toBe(sub?.deliveries[0]);
    expect(fresh?.claimToken).not.toBe(stale?.claimToken);
    expect(await record(stale as ClaimedDelivery, { status: 'delivered' })).toBeNull();
    expect(await record(fresh as ClaimedDelivery, { status: 'delivered' })).toBe(1);
    const attempts = await prisma().webhookAttempt.findMany();
    expect(attempts).toHaveLength(1);
  });

  it('subscriptions are independent: one blocked does not hold up another', async () => {
    const [a, b] = await seed(2, 2);
    const first = await claim(t0);
    expect(first.map((row) => row.id).sort()).toEqual([a?.deliveries[0], b?.deliveries[0]].sort());
    const ofA = first.find((row) => row.subscriptionId === a?.id) as ClaimedDelivery;
    const ofB = first.find((row) => row.subscriptionId === b?.id) as ClaimedDelivery;
    await record(ofA, { status: 'pending', nextAttemptAt: at(3_600_000) });
    await record(ofB, { status: 'delivered' });
    expect((await claim(t0)).map((row) => row.id)).toEqual([b?.deliveries[1]]);
  });

  it('records every attempt; a final failure releases the line', async () => {
    const [sub] = await seed(1, 2);
    const [first] = await claim(t0);
    await record(first as ClaimedDelivery, { status: 'failed' });
    const delivery = await prisma().webhookDelivery.findUniqueOrThrow({
      where: { id: first?.id ?? '' },
      include: { attemptLog: true },
    });
    expect(delivery).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastStatus: 500,
      lastError: 'HTTP 500',
      claimToken: null,
      lockedUntil: null,
      deliveredAt: null,
    });
    expect(delivery.attemptLog).toEqual([
      expect.objectContaining({ attempt: 1, httpStatus: 500, latencyMs: 12, error: 'HTTP 500' }),
    ]);
    expect((await claim(t0)).map((row) => row.id)).toEqual([sub?.deliveries[1]]);
  });

  it('concurrent claimers never share a delivery or a subscription', async () => {
    await seed(12, 4);
    const claims = await Promise.all(Array.from({ length: 8 }, () => claim(t0, 2, 3)));
    const ids = claims.flat().map((row) => row.id);
    expect(new Set(ids).size).toBe(ids.length);
    const owners = new Map<string, string>();
    for (const row of claims.flat()) {
      const holder = owners.get(row.subscriptionId);
      if (holder) expect(holder).toBe(row.claimToken);
      owners.set(row.subscriptionId, row.claimToken);
    }
    expect(owners.size).toBe(12);
    expect(ids).toHaveLength(24);
  });
});

describe('recordDeliveryAttempts', () => {
  it('records a whole run in one statement; a lost claim records nothing', async () => {
    const [sub] = await seed(1, 3);
    const run = await claim(t0, 3);
    const entry = (index: number, outcome: DeliveryOutcome, claimToken?: string) => ({
      deliveryId: run[index]?.id ?? '',
      claimToken: claimToken ?? run[index]?.claimToken ?? '',
      startedAt: at(index),
      httpStatus: outcome.status === 'delivered' ? 200 : null,
      latencyMs: 3.6,
      error: outcome.status === 'delivered' ? null : 'timed out after 10000 ms',
      outcome,
    });
    expect(
      await recordDeliveryAttempts(prisma(), [
        entry(0, { status: 'delivered' }),
        entry(1, { status: 'pending', nextAttemptAt: at(10_000) }),
        entry(2, { status: 'delivered' }, 'not-the-token'),
      ]),
    ).toEqual([1, 1, null]);
    const rows = await prisma().webhookDelivery.findMany({
      where: { subscriptionId: sub?.id ?? '' },
      orderBy: { seq: 'asc' },
      include: { attemptLog: true },
    });
    expect(rows.map((row) => [row.status, row.attempts, row.deliveredAt, row.claimToken])).toEqual([
      ['delivered', 1, at(0), null],
      ['pending', 1, null, null],
      ['pending', 0, null, run[2]?.claimToken],
    ]);
    expect(rows[1]?.nextAttemptAt).toEqual(at(10_000));
    expect(rows[0]?.attemptLog[0]).toMatchObject({ latencyMs: 4, httpStatus: 200 });
    expect(rows[1]?.attemptLog[0]).toMatchObject({
      httpStatus: null,
      error: 'timed out after 10000 ms',
    });
    expect(await recordDeliveryAttempts(prisma(), [])).toEqual([]);
  });
});

describe('claimDelivery', () => {
  it('claims a delivery only while it is its subscription head, due and free', async () => {
    const [sub] = await seed(1, 2);
    const [d1, d2] = sub?.deliveries ?? [];
    const options = { now: t0, leaseMs: LEASE };
    expect(await claimDelivery(prisma(), d2 ?? '', options)).toBeNull();
    const claimed = await claimDelivery(prisma(), d1 ?? '', options);
    expect(claimed?.id).toBe(d1);
    expect(await claimDelivery(prisma(), d1 ?? '', options)).toBeNull();
    await record(claimed as ClaimedDelivery, { status: 'pending', nextAttemptAt: at(1000) });
    expect(await claimDelivery(prisma(), d1 ?? '', options)).toBeNull();
    expect((await claimDelivery(prisma(), d1 ?? '', { ...options, now: at(1000) }))?.id).toBe(d1);
    expect(await claimDelivery(prisma(), 'dlv_unknown', options)).toBeNull();
  });
});
