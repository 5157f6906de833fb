/**
 * The `Program log:` lines `programId` itself wrote, read from a transaction's log messages by
 * following the runtime's `invoke [n]` / `success` / `failed` lines (a line logged inside a CPI
 * belongs to the invoked program, not to its caller).
 *
 * @example
 * programLogLines(meta.logMessages ?? [], routerProgramId); // ['svc:plan_… deposit_to_venue amount=5000000']
 */
export function programLogLines(logMessages: readonly string[], programId: string): string[] {
  const stack: string[] = [];
  const lines: string[] = [];
  for (const message of logMessages) {
    const invoked = /^Program (\w+) invoke \[\d+\]$/.exec(message);
    if (invoked?.[1]) {
      stack.push(invoked[1]);
      continue;
    }
    if (/^Program \w+ (success|failed)/.test(message)) {
      stack.pop();
      continue;
    }
    if (message.startsWith('Program log: ') && stack.at(-1) === programId) {
      lines.push(message.slice('Program log: '.length));
    }
  }
  return lines;
}
