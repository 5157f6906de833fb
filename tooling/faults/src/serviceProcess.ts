import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const OUTPUT_KEPT = 200_000;

/** Where each service lives and the line it logs once it serves (with its port). */
const SERVICES = {
  api: { dir: 'apps/api', entry: 'src/server.ts', ready: /"port":(\d+)[^\n]*"api listening"/ },
  keeper: {
    dir: 'apps/keeper',
    entry: 'src/main.ts',
    ready: /"port":(\d+)[^\n]*"keeper health at/,
  },
} as const;

export type ServiceName = keyof typeof SERVICES;

export interface ServiceProcess {
  readonly name: ServiceName;
  readonly child: ChildProcess;
  /** The port it serves on (the API, or the keeper's /health), from its start line. */
  readonly ready: Promise<number>;
  /** Resolves with the exit code, or the signal's name. */
  readonly exited: Promise<number | string>;
  /** Everything it wrote so far (stdout and stderr). */
  output(): string;
  /** Sends `signal` unless it has exited. */
  kill(signal: NodeJS.Signals): void;
}

/**
 * Runs the API or the keeper as `pnpm start` does on PostgreSQL: one node process each
 * (`node --import tsx <entry>` in the app's directory, so a signal reaches the service itself),
 * with exactly `env` (plus PATH). Set PORT / SVC_KEEPER_HEALTH_PORT to 0 for a free port.
 */
export function spawnService(name: ServiceName, env: Record<string, string>): ServiceProcess {
  const service = SERVICES[name];
  const child = spawn(process.execPath, ['--import', 'tsx', service.entry], {
    cwd: path.join(ROOT, service.dir),
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  const ready = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} did not start in 90 s:\n${output.slice(-3000)}`)),
      90_000,
    );
    const onData = (chunk: Buffer) => {
      // Request logs under load are many: keep the latest part.
      output = (output + chunk.toString()).slice(-OUTPUT_KEPT);
      const match = service.ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}) before serving:\n${output.slice(-3000)}`));
    });
  });
  // A caller that never waits for readiness must not see an unhandled rejection.
  ready.catch(() => undefined);
  return {
    name,
    child,
    ready,
    exited,
    output: () => output,
    kill: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
}
