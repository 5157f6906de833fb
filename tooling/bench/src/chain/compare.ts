// Ours against a baseline in the same run: warm both, then alternate rounds.
import type { ChainBenchSettings } from './benchSettings';
import { mergeSamples, opsPerSecond, runFor } from './measure';
import type { Operation, Sample } from './measure';

/** One row of a chain table: what was measured, both sides, and their ratio. */
export interface Comparison {
  readonly metric: string;
  readonly ours: Sample;
  readonly baseline: Sample;
  /** ours ops/s ÷ baseline ops/s. */
  readonly ratio: number;
  /** What the baseline does, for the footnotes. */
  readonly baselineLabel: string;
}

export interface CompareParameters {
  readonly metric: string;
  readonly ours: Operation;
  readonly baseline: Operation;
  readonly baselineLabel: string;
  /** Calls in flight (1 = sequential). */
  readonly concurrency: number;
}

/**
 * Warms both sides, then runs `settings.rounds` rounds of `seconds / rounds` each, alternating
 * which side goes first, and sums each side's windows.
 *
 * @example
 * await compare(settings, { metric: 'deposit build', ours, baseline, baselineLabel: 'viem', concurrency: 1 });
 */
export async function compare(
  settings: ChainBenchSettings,
  { metric, ours, baseline, baselineLabel, concurrency }: CompareParameters,
): Promise<Comparison> {
  await runFor(baseline, settings.warmupSeconds, concurrency);
  await runFor(ours, settings.warmupSeconds, concurrency);
  const window = settings.seconds / settings.rounds;
  const oursSamples: Sample[] = [];
  const baselineSamples: Sample[] = [];
  for (let round = 0; round < settings.rounds; round += 1) {
    const oursFirst = round % 2 === 1;
    if (oursFirst) oursSamples.push(await runFor(ours, window, concurrency));
    baselineSamples.push(await runFor(baseline, window, concurrency));
    if (!oursFirst) oursSamples.push(await runFor(ours, window, concurrency));
  }
  const oursSample = mergeSamples(oursSamples);
  const baselineSample = mergeSamples(baselineSamples);
  return {
    metric,
    ours: oursSample,
    baseline: baselineSample,
    ratio: opsPerSecond(oursSample) / opsPerSecond(baselineSample),
    baselineLabel,
  };
}
