// CPU time of a process and its descendants, read from /proc (Linux). On a shared machine the
// wall time of a call moves with everyone else's load; the CPU each process spends on it
// moves much less, so it says where a path's cost is.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';

let microsPerTick: number | undefined;

/** The fields of /proc/<pid>/stat after the command name: [0] state, [1] ppid, [11] utime… */
function statOf(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // exited since it was listed
  }
}

function treeOf(root: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const ppid = Number(statOf(Number(entry))?.[1]);
    parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
  }
  const tree = [root];
  for (let index = 0; index < tree.length; index += 1) {
    tree.push(...(parents.get(tree[index]!) ?? []));
  }
  return tree;
}

/**
 * User + system CPU microseconds used so far by `pid` and every process under it (a `tsx`
 * command runs the script in a child node process), or undefined where there is no /proc.
 * Its resolution is one clock tick (10 ms): sum it over many calls.
 */
export function processTreeCpuMicros(pid: number): number | undefined {
  if (!existsSync('/proc/self/stat')) return undefined;
  microsPerTick ??= 1e6 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
  let ticks = 0;
  for (const member of treeOf(pid)) {
    const stat = statOf(member);
    if (stat) ticks += Number(stat[11]) + Number(stat[12]);
  }
  return ticks * microsPerTick;
}
