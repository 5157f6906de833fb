import fc from 'fast-check';
import type { BatchResult } from './batchQueue';
import { BatchQueue } from './batchQueue';

/** A run that waits until released, recording what each run carried. */
function gatedRun() {
  const runs: number[][] = [];
  const gates: (() => void)[] = [];
  const run = async (items: readonly number[]): Promise<BatchResult<number>[]> => {
    runs.push([...items]);
    await new Promise<void>((resolve) => gates.push(resolve));
    return items.map((item) =>
      item < 0 ? { ok: false, error: new Error(`no ${item}`) } : { ok: true, value: item * 10 },
    );
  };
  const releaseNext = async () => {
    while (gates.length === 0) await new Promise((resolve) => setImmediate(resolve));
    (gates.shift() as () => void)();
  };
  return { runs, run, releaseNext };
}

describe('BatchQueue', () => {
  it('sends a lone item at once, and what arrives meanwhile as the next run', async () => {
    const { runs, run, releaseNext } = gatedRun();
    const queue = new BatchQueue(run, { maxBatch: 10, maxInFlight: 1 });
    const first = queue.push(1);
    const rest = [queue.push(2), queue.push(3), queue.push(4)];
    expect(runs).toEqual([[1]]);
    await releaseNext();
    expect(await first).toBe(10);
    await releaseNext();
    expect(await Promise.all(rest)).toEqual([20, 30, 40]);
    expect(runs).toEqual([[1], [2, 3, 4]]);
  });

  it('keeps to maxBatch and maxInFlight', async () => {
    const { runs, run, releaseNext } = gatedRun();
    const queue = new BatchQueue(run, { maxBatch: 2, maxInFlight: 2 });
    const all = [1, 2, 3, 4, 5, 6, 7].map((item) => queue.push(item));
    expect(runs).toEqual([[1], [2]]);
    for (let released = 0; released < 5; released += 1) await releaseNext();
    expect(await Promise.all(all)).toEqual([10, 20, 30, 40, 50, 60, 70]);
    expect(runs).toEqual([[1], [2], [3, 4], [5, 6], [7]]);
  });

  it('never puts two items with one key in the same run', async () => {
    const { runs, run, releaseNext } = gatedRun();
    const queue = new BatchQueue(run, {
      maxBatch: 10,
      maxInFlight: 1,
      keyOf: (item) => String(item % 3),
    });
    const all = [9, 1, 4, 7, 2].map((item) => queue.push(item));
    for (let released = 0; released < 4; released += 1) await releaseNext();
    expect(await Promise.all(all)).toEqual([90, 10, 40, 70, 20]);
    // 9 goes alone; then 1 and 2 (4 and 7 share 1's key and wait), then 4, then 7.
    expect(runs).toEqual([[9], [1, 2], [4], [7]]);
  });

  it('gives each item its own answer, and fails a whole run that throws', async () => {
    const { run, releaseNext } = gatedRun();
    const queue = new BatchQueue(run, { maxBatch: 10, maxInFlight: 1 });
    const good = queue.push(5);
    const bad = queue.push(-1);
    await releaseNext();
    await releaseNext();
    expect(await good).toBe(50);
    await expect(bad).rejects.toThrow('no -1');

    const broken = new BatchQueue<number, number>(
      () => Promise.reject(new Error('database gone')),
      { maxBatch: 10, maxInFlight: 1 },
    );
    await expect(Promise.all([broken.push(1), broken.push(2)])).rejects.toThrow('database gone');
  });

  it('answers every item exactly once, whatever the timing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 20 }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 4 }),
        async (items, maxBatch, maxInFlight) => {
          const carried: number[] = [];
          let running = 0;
          let peak = 0;
          const queue = new BatchQueue<number, number>(
            async (batch) => {
              running += 1;
              peak = Math.max(peak, running);
              expect(batch.length).toBeLessThanOrEqual(maxBatch);
              expect(new Set(batch).size).toBe(batch.length);
              carried.push(...batch);
              await new Promise((resolve) => setTimeout(resolve, batch.length % 3));
              running -= 1;
              return batch.map((item) => ({ ok: true, value: item + 1 }));
            },
            { maxBatch, maxInFlight, keyOf: String },
          );
          const answers = await Promise.all(items.map((item) => queue.push(item)));
          expect(answers).toEqual(items.map((item) => item + 1));
          expect(carried.sort((a, b) => a - b)).toEqual([...items].sort((a, b) => a - b));
          expect(peak).toBeLessThanOrEqual(maxInFlight);
        },
      ),
      { numRuns: 60 },
    );
  });
});
