import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

export interface Service {
  readonly name: 'api' | 'keeper';
  /** The app's directory (its working directory, as `pnpm --filter … start` would use). */
  readonly dir: string;
  readonly entry: string;
}

/**
 * What `pnpm start` runs: the API always; the keeper as its own process only on PostgreSQL
 * (on the embedded database, which is single-process, the API runs the keeper inside itself).
 */
export function servicesFor(env: Readonly<Record<string, string | undefined>>): Service[] {
  const api: Service = { name: 'api', dir: path.join(ROOT, 'apps/api'), entry: 'src/server.ts' };
  const keeper: Service = {
    name: 'keeper',
    dir: path.join(ROOT, 'apps/keeper'),
    entry: 'src/main.ts',
  };
  return env['DATABASE_URL'] ? [api, keeper] : [api];
}

export interface LaunchedServices {
  readonly children: ReadonlyMap<Service['name'], ChildProcess>;
  /** Resolves with the exit code the launcher should end with. */
  readonly exited: Promise<number>;
  /** Passes a signal on to every service (they drain and exit). */
  stop(signal: NodeJS.Signals): void;
}

/**
 * Runs each service as one node process (`node --import tsx`, so signals reach it). When one
 * exits, the others are told to stop (SIGTERM); the result is the first non-zero exit code, or 0.
 */
export function launchServices(
  services: readonly Service[],
  env: NodeJS.ProcessEnv,
  stdio: 'inherit' | 'ignore' = 'inherit',
): LaunchedServices {
  const children = new Map<Service['name'], ChildProcess>();
  let code = 0;
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    stopping = true;
    for (const child of children.values()) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    }
  };
  const exits = services.map((service) => {
    const child = spawn(process.execPath, ['--import', 'tsx', service.entry], {
      cwd: service.dir,
      env,
      stdio,
    });
    children.set(service.name, child);
    return new Promise<void>((resolve) => {
      child.once('exit', (exitCode, signal) => {
        const result = exitCode ?? (signal ? 1 : 0);
        if (code === 0) code = result;
        if (!stopping) {
          process.stderr.write(
            `${service.name} exited (${signal ?? exitCode}); stopping the other services\n`,
          );
          if (code === 0) code = 1;
          stop('SIGTERM');
        }
        resolve();
      });
    });
  });
  return { children, exited: Promise.all(exits).then(() => code), stop };
}
