// Test support: the keeper as a child process, the way `pnpm start` runs it: one node process
// (`node --import tsx`, not the tsx wrapper, so a signal reaches the keeper itself).
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';

const KEEPER_DIR = path.resolve(__dirname, '../..');

export interface KeeperProcess {
  readonly child: ChildProcess;
  /** Everything it wrote so far (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code (or the signal's name). */
  readonly exited: Promise<number | string>;
}

export function spawnKeeper(env: Record<string, string>): KeeperProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: KEEPER_DIR,
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  return { child, output: () => output, exited };
}
