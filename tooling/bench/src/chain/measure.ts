// Timed loops: run an operation for a fixed window with N in flight, count it and time each call.
import { performance } from 'node:perf_hooks';

/** One operation under test. It throws when its result is wrong: the bench then fails. */
export type Operation = () => Promise<unknown>;

/** What a timed window produced. */
export interface Sample {
  readonly ops: number;
  readonly elapsedMs: number;
  /** Milliseconds per completed call. */
  readonly latencies: readonly number[];
}

/**
 * Runs `operation` with `concurrency` calls in flight until `seconds` have passed (calls in
 * flight at the deadline finish and count). Sequential when `concurrency` is 1.
 *
 * @example
 * const sample = await runFor(() => adapter.readBalances(owner), 2, 8);
 */
export async function runFor(
  operation: Operation,
  seconds: number,
  concurrency: number,
): Promise<Sample> {
  const latencies: number[] = [];
  const start = performance.now();
  const deadline = start + seconds * 1000;
  let failed = false;
  const worker = async () => {
    while (!failed && performance.now() < deadline) {
      const begun = performance.now();
      try {
        await operation();
      } catch (error) {
        // Stop the other workers too: the window is void and the bench fails with this error.
        failed = true;
        throw error;
      }
      latencies.push(performance.now() - begun);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { ops: latencies.length, elapsedMs: performance.now() - start, latencies };
}

/** Several windows of the same side as one sample. */
export function mergeSamples(samples: readonly Sample[]): Sample {
  return {
    ops: samples.reduce((total, sample) => total + sample.ops, 0),
    elapsedMs: samples.reduce((total, sample) => total + sample.elapsedMs, 0),
    latencies: samples.flatMap((sample) => sample.latencies),
  };
}

export const opsPerSecond = (sample: Sample): number =>
  sample.elapsedMs > 0 ? (sample.ops * 1000) / sample.elapsedMs : 0;

/** The `fraction` percentile (nearest rank) of the latencies in ms; NaN when there are none. */
export function percentile(sample: Sample, fraction: number): number {
  if (sample.latencies.length === 0) return Number.NaN;
  const sorted = Float64Array.from(sample.latencies).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}
