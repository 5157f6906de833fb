import {
  findBridgeTransfer,
  listInFlightBridges,
  markFailedBridgeWatched,
  recordBridgeDelivery,
  withLockedBridgeTransfer,
} from './bridgeTransfers';
import { createTestDatabase, failSettledBridge, insertSettledBridge } from './testing';
import type { TestDatabase } from './testing';

// Bridge transfer rows on real PostgreSQL: the one locked read the delivery and the failure
// both decide on, and the failed bridges' slower watch (migration 0038).

const MINUTE = 60_000;
let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

const fail = (planId: string, now: Date) => failSettledBridge(test.db, planId, now);

describe('withLockedBridgeTransfer', () => {
  it('refuses a plan that bridges nothing before its work runs', async () => {
    const work = jest.fn();
    await expect(withLockedBridgeTransfer(test.db, 'plan_none', work)).resolves.toEqual({
      status: 'refused',
      reason: 'plan_none is not a bridge plan',
    });
    expect(work).not.toHaveBeenCalled();
  });

  it('holds the row lock: a delivery waits for a failure holding it, then decides on its write', async () => {
    const db = test.db;
    const { planId } = await insertSettledBridge(db, { speed: 'standard', settledAt: new Date() });
    const order: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = withLockedBridgeTransfer(db, planId, async (tx, transfer) => {
      order.push(`first saw failedAt=${String(transfer.failedAt)}`);
      await tx.$executeRaw`
        UPDATE bridge_transfers SET failed_at = now(), failure_reason = 'held'
        WHERE plan_id = ${planId}`;
      await held;
      return 'first';
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const second = withLockedBridgeTransfer(db, planId, async (_tx, transfer) => {
      order.push(`second saw failureReason=${transfer.failureReason}`);
      return 'second';
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(order).toEqual(['first saw failedAt=null']);
    release();
    expect(await Promise.all([first, second])).toEqual(['first', 'second']);
    expect(order).toEqual(['first saw failedAt=null', 'second saw failureReason=held']);
  });

  it('is the read recordBridgeDelivery and recordBridgeFailure decide on', async () => {
    const db = test.db;
    const { planId } = await insertSettledBridge(db, { speed: 'fast', settledAt: new Date() });
    const mint = { planId, mintTxId: '0xmint', messageNonce: '0x01', now: new Date() };
    await expect(
      recordBridgeDelivery(db, { ...mint, planId: 'plan_none', deliveredMicros: 1n }),
    ).resolves.toEqual({ status: 'refused', reason: 'plan_none is not a bridge plan' });
    await expect(fail('plan_none', new Date())).resolves.toMatchObject({ status: 'refused' });
    await expect(
      recordBridgeDelivery(db, { ...mint, deliveredMicros: 9_990_000n }),
    ).resolves.toMatchObject({ status: 'delivered', replay: false });
    await expect(fail(planId, new Date())).resolves.toEqual({
      status: 'refused',
      reason: `${planId} was delivered by 0xmint`,
    });
    expect((await findBridgeTransfer(db, planId))?.mintTxId).toBe('0xmint');
  });
});

describe('listInFlightBridges with failedWatchedBefore', () => {
  it('lists a failed bridge until it is watched, then again once its last look is older', async () => {
    const db = test.db;
    const t0 = new Date(Date.now() - 60 * MINUTE);
    const open = await insertSettledBridge(db, { speed: 'standard', settledAt: t0 });
    const failed = await insertSettledBridge(db, { speed: 'standard', settledAt: t0 });
    await fail(failed.planId, t0);
    const listed = async (failedWatchedBefore?: Date) =>
      (
        await listInFlightBridges(db, {
          limit: 1000,
          ...(failedWatchedBefore ? { failedWatchedBefore } : {}),
        })
      )
        .map((row) => row.planId)
        .filter((planId) => planId === open.planId || planId === failed.planId)
        .sort();
    const both = [open.planId, failed.planId].sort();
    const cut = (minutes: number) => new Date(t0.getTime() + minutes * MINUTE);

    // Never watched since it failed: listed.
    expect(await listed(cut(0))).toEqual(both);
    await markFailedBridgeWatched(db, failed.planId, cut(1));
    await markFailedBridgeWatched(db, open.planId, cut(1)); // not failed: nothing recorded
    expect(await listed(cut(1))).toEqual([open.planId]);
    expect(await listed(cut(2))).toEqual(both);
    // Without the cut-off, every failed bridge is listed (the watch before migration 0038).
    expect(await listed()).toEqual(both);
    const rows = await db.$queryRaw<{ plan_id: string; failed_watched_at: Date | null }[]>`
      SELECT plan_id, failed_watched_at FROM bridge_transfers
      WHERE plan_id IN (${open.planId}, ${failed.planId})`;
    expect(Object.fromEntries(rows.map((row) => [row.plan_id, row.failed_watched_at]))).toEqual({
      [open.planId]: null,
      [failed.planId]: cut(1),
    });
  });
});
