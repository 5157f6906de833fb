// The two balance-read rows every chain prints: sequential and with N in flight.
import type { ChainBenchSettings } from './benchSettings';
import { compare } from './compare';
import type { Comparison } from './compare';
import type { Operation } from './measure';

/**
 * `readBalances` against a raw-fetch baseline of the same JSON-RPC reads, at concurrency 1 and
 * `settings.concurrency`.
 *
 * @example
 * const rows = await balanceRows(settings, ours, baseline, 'raw fetch: suix_getBalance x2');
 */
export async function balanceRows(
  settings: ChainBenchSettings,
  ours: Operation,
  baseline: Operation,
  baselineLabel: string,
): Promise<Comparison[]> {
  const rows: Comparison[] = [];
  for (const concurrency of [1, settings.concurrency]) {
    rows.push(
      await compare(settings, {
        metric: `readBalances c=${concurrency}`,
        ours,
        baseline,
        baselineLabel,
        concurrency,
      }),
    );
  }
  return rows;
}
