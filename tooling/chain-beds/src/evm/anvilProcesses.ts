import type { ChildProcess } from 'node:child_process';

/** Every anvil this process started and has not stopped yet. */
const live = new Set<ChildProcess>();
let hooked = false;

function killAll(): void {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
}

/** Kills the children, then lets the signal do what it would have done without this hook. */
function onSignal(signal: NodeJS.Signals): void {
  killAll();
  process.removeListener(signal, onSignal);
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

function hookProcessExit(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, onSignal);
}

/** Tracks a child so it is killed if this process exits (or is signalled) before `stop()`. */
export function trackChild(child: ChildProcess): void {
  hookProcessExit();
  live.add(child);
  child.once('exit', () => live.delete(child));
}
