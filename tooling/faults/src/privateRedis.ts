import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { faultsSettings } from './faultsSettings';

export interface PrivateRedis {
  readonly url: string;
  readonly port: number;
  /** Stops the server (SIGKILL: nothing is saved) and starts an empty one on the same port. */
  restartEmpty(options?: { downMs?: number }): Promise<void>;
  stop(): Promise<void>;
}

/** A port nobody listens on right now (the system picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = address && typeof address !== 'string' ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function answers(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new Redis(url, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.ping();
      return;
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`private redis-server at ${url} did not answer: ${String(error)}`);
    } finally {
      client.disconnect();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A redis-server of the caller's own on a free loopback port, without persistence, so a
 * restart comes back empty (never the machine's shared Redis, which other runs use).
 */
export async function startPrivateRedis(
  redisServer = faultsSettings().redisServer,
): Promise<PrivateRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn(
      redisServer,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    child = started;
    const failed = new Promise<never>((_, reject) => {
      started.once('error', (error) =>
        reject(new Error(`cannot run ${redisServer}: ${error.message}`)),
      );
    });
    await Promise.race([answers(url, 10_000), failed]);
  };
  const kill = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url,
    port,
    restartEmpty: async ({ downMs = 0 } = {}) => {
      await kill();
      if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
      await start();
    },
    stop: kill,
  };
}
