import type { Opportunity } from '@yieldrouter/schemas';
import { createOpportunitySnapshots } from './opportunitySnapshots';

// The loader stands in for listOpportunities: these tests are about caching, not the listing.
const row = (venueId: string, grossApyBps: number | null) =>
  ({ venueId, grossApyBps }) as unknown as Opportunity;

function harness(ttlMs: number) {
  let clock = 0;
  let rows: Opportunity[] = [row('a', 100)];
  const loads: { resolve: () => void }[] = [];
  let calls = 0;
  let deferred = false;
  const snapshots = createOpportunitySnapshots({
    ttlMs,
    now: () => new Date(clock),
    load: () => {
      calls += 1;
      const copy = rows.map((entry) => ({ ...entry }));
      if (!deferred) return Promise.resolve(copy);
      return new Promise((resolve) => loads.push({ resolve: () => resolve(copy) }));
    },
  });
  return {
    snapshots,
    advance: (ms: number) => (clock += ms),
    setRows: (next: Opportunity[]) => (rows = next),
    defer: () => (deferred = true),
    release: () => loads.splice(0).forEach((load) => load.resolve()),
    calls: () => calls,
  };
}

describe('opportunity snapshots', () => {
  it('serves one frozen snapshot within the TTL and derives each document once', async () => {
    const h = harness(1000);
    const first = await h.snapshots.current();
    expect(Object.isFrozen(first.opportunities[0])).toBe(true);
    const build = jest.fn(() => ({ count: first.opportunities.length }));
    const doc = first.derive('count', build);
    h.advance(999);
    const again = await h.snapshots.current();
    expect(again).toBe(first);
    expect(again.derive('count', build)).toBe(doc);
    expect(build).toHaveBeenCalledTimes(1);
    expect(h.calls()).toBe(1);
    expect(doc.etag).toMatch(/^"[0-9a-f]{16}-[0-9a-f]{8}"$/);
  });

  it('after the TTL: serves the old snapshot once while reloading; unchanged content keeps its version', async () => {
    const h = harness(1000);
    const first = await h.snapshots.current();
    h.advance(1000);
    expect(await h.snapshots.current()).toBe(first);
    await new Promise((resolve) => setImmediate(resolve));
    expect(h.calls()).toBe(2);
    expect(await h.snapshots.current()).toBe(first); // same content → same snapshot, same ETags
  });

  it('changed content gets a new version and new ETags', async () => {
    const h = harness(0);
    const first = await h.snapshots.current();
    h.setRows([row('a', 200)]);
    const second = await h.snapshots.current();
    expect(second.version).not.toBe(first.version);
    expect(second.derive('x', () => ({})).etag).not.toBe(first.derive('x', () => ({})).etag);
  });

  it('concurrent misses share one load; a load started before invalidate() is not installed', async () => {
    const h = harness(60_000);
    h.defer();
    const [a, b] = [h.snapshots.current(), h.snapshots.current()];
    h.release();
    expect(await a).toBe(await b);
    expect(h.calls()).toBe(1);

    h.advance(60_000);
    await h.snapshots.current(); // stale: starts a background reload (deferred)
    h.snapshots.invalidate();
    h.setRows([row('a', 300)]);
    const fresh = h.snapshots.current();
    h.release();
    expect((await fresh).opportunities[0]?.grossApyBps).toBe(300);
    expect((await h.snapshots.current()).opportunities[0]?.grossApyBps).toBe(300);
  });

  it('a failed load is not cached: the next call tries again', async () => {
    let fail = true;
    const snapshots = createOpportunitySnapshots({
      ttlMs: 60_000,
      load: () => (fail ? Promise.reject(new Error('db down')) : Promise.resolve([row('a', 1)])),
    });
    await expect(snapshots.current()).rejects.toThrow('db down');
    fail = false;
    expect((await snapshots.current()).opportunities).toHaveLength(1);
  });
});
