import { startIrisFake } from '@yieldrouter/chain-beds/bridges';
import type { IrisFake } from '@yieldrouter/chain-beds/bridges';
import { IRIS_HOLD_OFF_MS, IrisGateError, createIrisGate, retryAfterMs } from './irisGate';
import { readCctpFees } from './readCctpFee';

// The gate against the Iris-shaped fake (its fee endpoint needs no chain), on a clock the test
// moves: waiting for a slot advances it instead of sleeping.
let iris: IrisFake;
beforeAll(async () => {
  iris = await startIrisFake({ domains: [] });
});
afterAll(() => iris.close());
afterEach(() => {
  iris.setMode('ok');
  iris.setRetryAfter('300');
});

function clockedGate(maxRequestsPerSecond: number, timeoutMs: number) {
  let at = 1_700_000_000_000;
  const slept: number[] = [];
  const holdOffs: Array<{ until: Date; retryAfter: string | null }> = [];
  const gate = createIrisGate({
    fetch,
    maxRequestsPerSecond,
    timeoutMs,
    now: () => at,
    sleep: async (ms) => {
      slept.push(ms);
      at += ms;
    },
    onHoldOff: (until, retryAfter) => holdOffs.push({ until, retryAfter }),
  });
  const feeRead = () =>
    readCctpFees({
      baseUrl: iris.url,
      timeoutMs: 2000,
      sourceDomain: 6,
      destinationDomain: 3,
      fetch: gate.fetch,
    });
  return {
    gate,
    slept,
    holdOffs,
    feeRead,
    now: () => at,
    advance: (ms: number) => (at += ms),
  };
}

describe('createIrisGate: the request budget', () => {
  it('lets at most the budget start in a second; past it a read fails closed at once', async () => {
    const t = clockedGate(3, 500);
    const before = iris.counts().all;
    const reads = await Promise.all([t.feeRead(), t.feeRead(), t.feeRead(), t.feeRead()]);
    expect(reads.filter((read) => read.status === 'ok')).toHaveLength(3);
    expect(reads[3]).toEqual({
      status: 'unavailable',
      detail:
        'the attestation service request budget is spent (3 requests per second in this process): no slot within 500 ms',
    });
    expect(iris.counts().all - before).toBe(3);
    expect(t.slept).toEqual([]);
    // A second later the window has room again.
    t.advance(1000);
    expect(await t.feeRead()).toMatchObject({ status: 'ok' });
    expect(iris.counts().all - before).toBe(4);
  });

  it('waits for the next free slot when it comes within the timeout', async () => {
    const t = clockedGate(2, 2000);
    const start = t.now();
    const before = iris.counts().all;
    const reads = await Promise.all([t.feeRead(), t.feeRead(), t.feeRead(), t.feeRead()]);
    expect(reads.every((read) => read.status === 'ok')).toBe(true);
    expect(iris.counts().all - before).toBe(4);
    // The third waited for the first second's window to pass; the fourth then found room.
    expect(t.slept).toEqual([1000]);
    expect(t.now() - start).toBe(1000);
  });
});

describe('createIrisGate: a 429 holds every request off', () => {
  it('until Retry-After (seconds): reads fail closed at once naming the end, then resume', async () => {
    const t = clockedGate(10, 1000);
    iris.setMode('rate_limited');
    iris.setRetryAfter('120');
    const before = iris.counts().all;
    const until = new Date(t.now() + 120_000).toISOString();
    const first = await t.feeRead();
    expect(first).toEqual({
      status: 'unavailable',
      detail: `the attestation service answered 429 (rate limited): no request to it until ${until}`,
    });
    expect(t.gate.holdOffUntil()?.toISOString()).toBe(until);
    iris.setMode('ok');
    t.advance(119_000);
    expect(await t.feeRead()).toEqual(first);
    await expect(t.gate.fetch(`${iris.url}/v2/messages/6`)).rejects.toBeInstanceOf(IrisGateError);
    expect(iris.counts().all - before).toBe(1);
    expect(t.holdOffs).toEqual([{ until: new Date(until), retryAfter: '120' }]);
    t.advance(1000);
    expect(t.gate.holdOffUntil()).toBeUndefined();
    expect(await t.feeRead()).toMatchObject({ status: 'ok' });
    expect(iris.counts().all - before).toBe(2);
  });

  it('until an HTTP-date Retry-After, or 5 minutes without one; logged once per hold-off', async () => {
    const t = clockedGate(10, 1000);
    iris.setMode('rate_limited');
    const at = new Date(Math.ceil((t.now() + 45_000) / 1000) * 1000);
    iris.setRetryAfter(at.toUTCString());
    // Two reads in flight together: both get a 429; one hold-off, logged once.
    await Promise.all([t.feeRead(), t.feeRead()]);
    expect(t.gate.holdOffUntil()).toEqual(at);
    expect(t.holdOffs).toHaveLength(1);
    t.advance(at.getTime() - t.now());
    iris.setRetryAfter(null);
    const start = t.now();
    expect(await t.feeRead()).toMatchObject({ status: 'unavailable' });
    expect(t.gate.holdOffUntil()).toEqual(new Date(start + IRIS_HOLD_OFF_MS));
    expect(t.holdOffs).toHaveLength(2);
  });

  it('reads Retry-After as seconds or an HTTP date, and nothing else', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('30', now)).toBe(30_000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterMs('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs('-5', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});
