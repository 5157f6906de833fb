import type { Scenario, ScenarioResult } from './scenario';

const COLUMNS = [
  'fault',
  'load',
  'accepted',
  'effects',
  'lost',
  'doubled',
  'settled once',
  'delivered',
  'time',
  'result',
] as const;

/** The suite's table (Markdown, so docs/operations.md can quote it) and the notes under it. */
export function formatReport(
  rows: ReadonlyArray<{ readonly scenario: Scenario; readonly result: ScenarioResult }>,
  totalMs: number,
): string {
  const cells = rows.map(({ scenario, result }) => [
    result.fault,
    result.load,
    String(result.accepted),
    String(result.effects),
    String(result.lost),
    String(result.doubled),
    result.settled === null ? '-' : String(result.settled),
    result.delivered === null ? '-' : String(result.delivered),
    `${(result.ms / 1000).toFixed(0)} s`,
    result.problems.length === 0
      ? 'pass'
      : scenario.waitsFor
        ? `FAIL (waits for ${scenario.waitsFor})`
        : 'FAIL',
  ]);
  const widths = COLUMNS.map((column, index) =>
    Math.max(column.length, ...cells.map((row) => (row[index] ?? '').length)),
  );
  const line = (values: readonly string[]) =>
    `| ${values.map((value, index) => value.padEnd(widths[index] ?? 0)).join(' | ')} |`;
  const notes = rows.flatMap(({ result }) =>
    result.notes.map((note) => `- ${result.fault}: ${note}`),
  );
  const failed = rows.filter(({ result }) => result.problems.length > 0).length;
  return [
    line(COLUMNS),
    line(widths.map((width) => '-'.repeat(width))),
    ...cells.map(line),
    '',
    ...notes,
    '',
    `${rows.length - failed} of ${rows.length} scenarios passed in ${(totalMs / 1000).toFixed(0)} s`,
  ].join('\n');
}
