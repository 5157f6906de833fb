// Prints one chain's report as a fixed-width table plus footnotes.
import type { ChainReport } from './chainReport';
import type { Comparison } from './compare';
import { opsPerSecond, percentile } from './measure';
import type { Sample } from './measure';

const COLUMNS = [
  { title: 'chain', width: 7, align: 'left' },
  { title: 'metric', width: 42, align: 'left' },
  { title: 'ours/s', width: 9, align: 'right' },
  { title: 'baseline/s', width: 11, align: 'right' },
  { title: 'ratio', width: 7, align: 'right' },
  { title: 'ours p50/p99 ms', width: 17, align: 'right' },
  { title: 'base p50/p99 ms', width: 17, align: 'right' },
] as const;

const ms = (value: number) =>
  value < 1 ? value.toFixed(3) : value < 10 ? value.toFixed(2) : value.toFixed(1);

const latency = (sample: Sample) =>
  `${ms(percentile(sample, 0.5))}/${ms(percentile(sample, 0.99))}`;

function line(cells: readonly string[]): string {
  return cells
    .map((cell, index) => {
      const column = COLUMNS[index];
      if (!column) return cell;
      return column.align === 'left' ? cell.padEnd(column.width) : cell.padStart(column.width);
    })
    .join('  ')
    .trimEnd();
}

function row(chain: string, comparison: Comparison): string {
  return line([
    chain,
    comparison.metric,
    opsPerSecond(comparison.ours).toFixed(0),
    opsPerSecond(comparison.baseline).toFixed(0),
    comparison.ratio.toFixed(3),
    latency(comparison.ours),
    latency(comparison.baseline),
  ]);
}

/** The table header (printed once above all chains). */
export function formatHeader(): string {
  return line(COLUMNS.map((column) => column.title));
}

/**
 * The chain's rows and, under them, what each baseline does and the chain's notes.
 *
 * @example
 * process.stdout.write(formatReport(await benchSui(settings)));
 */
export function formatReport(report: ChainReport): string {
  const baselines = new Map<string, string>();
  for (const comparison of report.rows) {
    const metric = comparison.metric.replace(/ c=\d+$/, '');
    if (!baselines.has(metric)) baselines.set(metric, comparison.baselineLabel);
  }
  return [
    ...report.rows.map((comparison) => row(report.chain, comparison)),
    `         bed: ${report.bed}`,
    ...[...baselines].map(([metric, label]) => `         baseline of ${metric}: ${label}`),
    ...report.notes.map((note) => `         note: ${note}`),
    '',
  ].join('\n');
}
