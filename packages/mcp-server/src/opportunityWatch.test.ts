import type { OperationCaller } from './tools/callTool';
import { OpportunityWatch } from './opportunityWatch';

// What the README says produces notifications/resources/updated: a poll every interval, and a
// change of an opportunity's grossApyBps (or of the list) since the last good read; nothing else.
const list = (...rows: [string, number | null, number?][]) => ({
  opportunities: rows.map(([opportunityId, grossApyBps, tvlUsd]) => ({
    opportunityId,
    grossApyBps,
    tvlUsd: tvlUsd ?? 1,
  })),
});

function watchOver(answers: (object | Error)[]) {
  let reads = 0;
  let notified = 0;
  const call: OperationCaller = (operationId) => {
    expect(operationId).toBe('listOpportunities');
    const answer = answers[Math.min(reads, answers.length - 1)];
    reads += 1;
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  };
  const watch = new OpportunityWatch({
    call,
    intervalMs: 1000,
    onChange: () => {
      notified += 1;
      return Promise.resolve();
    },
  });
  return { watch, reads: () => reads, notified: () => notified };
}

beforeEach(() => {
  jest.useFakeTimers();
});
afterEach(() => {
  jest.useRealTimers();
});

describe('OpportunityWatch', () => {
  it('reads a baseline on start, then once per interval; an APY change notifies once', async () => {
    const { watch, reads, notified } = watchOver([
      list(['a', 400], ['b', 500]),
      list(['a', 400], ['b', 500]),
      list(['a', 401], ['b', 500]),
    ]);
    await watch.start();
    expect(reads()).toBe(1);
    await jest.advanceTimersByTimeAsync(1000);
    expect([reads(), notified()]).toEqual([2, 0]);
    await jest.advanceTimersByTimeAsync(1000);
    expect([reads(), notified()]).toEqual([3, 1]);
    await jest.advanceTimersByTimeAsync(3000);
    expect([reads(), notified()]).toEqual([6, 1]);
    watch.stop();
    await jest.advanceTimersByTimeAsync(5000);
    expect(reads()).toBe(6);
  });

  it('known ↔ unknown and a new opportunity notify; another field does not', async () => {
    const { watch, notified } = watchOver([
      list(['a', 400]),
      list(['a', 400, 999]),
      list(['a', null, 999]),
      list(['a', null], ['b', 300]),
    ]);
    await watch.start();
    await jest.advanceTimersByTimeAsync(1000);
    expect(notified()).toBe(0);
    await jest.advanceTimersByTimeAsync(1000);
    expect(notified()).toBe(1);
    await jest.advanceTimersByTimeAsync(1000);
    expect(notified()).toBe(2);
    watch.stop();
  });

  it('a failed read is skipped: the next one compares with the last good one', async () => {
    const { watch, notified } = watchOver([
      list(['a', 400]),
      new Error('API unreachable'),
      list(['a', 400]),
      list(['a', 410]),
    ]);
    await watch.start();
    await jest.advanceTimersByTimeAsync(2000);
    expect(notified()).toBe(0);
    await jest.advanceTimersByTimeAsync(1000);
    expect(notified()).toBe(1);
    watch.stop();
  });
});
