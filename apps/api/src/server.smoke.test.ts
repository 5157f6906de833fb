import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { NO_VENUE_READY_HINT } from '@yieldrouter/engine';

const tsx = path.join(__dirname, '..', 'node_modules', '.bin', 'tsx');

// Bounds for a loaded machine: a cold `tsx server.ts` on the embedded database took 50 s on a
// busy 2-core machine (tsx compiling the app, PGlite migrating), close to the 60 s that bounded
// both the start and the whole test. The start has its own generous bound (a server that never
// listens still fails, with its output), and each test a larger one.
const START_LIMIT_MS = 240_000;
jest.setTimeout(300_000);

/**
 * Starts the real server process the way `pnpm start` does and waits for it to listen. It
 * listens on a port the system picks (PORT=0; a random fixed port could collide with other
 * tests' sockets), and `ready` gives the port from the `api listening` line.
 */
function startServer(env: Record<string, string>) {
  const child = spawn(tsx, [path.join(__dirname, 'server.ts')], {
    env: { ...process.env, NODE_OPTIONS: '', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no start in ${START_LIMIT_MS / 1000} s:\n${output}`)),
      START_LIMIT_MS,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /"port":(\d+)[^\n]*"api listening"/.exec(output);
      if (listening) {
        clearTimeout(timer);
        resolve(Number(listening[1]));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  const stopped = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, ready, stopped, output: () => output };
}

describe('server process (pnpm start)', () => {
  it('starts on embedded PGlite with Redis down, serves docs and meta, drains on SIGTERM', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-pglite-'));
    const server = startServer({
      HOST: '127.0.0.1',
      SVC_DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: 'redis://127.0.0.1:1',
      LOG_LEVEL: 'info',
    });
    try {
      const base = `http://127.0.0.1:${await server.ready}`;
      const health = (await (await fetch(`${base}/health`)).json()) as {
        checks: { database: string; redis: string };
      };
      expect(health.checks).toEqual({ database: 'up', redis: 'down' });
      expect((await fetch(`${base}/docs`)).status).toBe(200);
      expect((await fetch(`${base}/api/v1/svc/status`)).status).toBe(200);
      expect(server.output()).toContain('Redis is unreachable');
      // On defaults no venue is ready: one line says which setting makes one ready.
      expect(server.output()).toContain(NO_VENUE_READY_HINT);
      server.child.kill('SIGTERM');
      expect(await server.stopped).toBe(0);
    } finally {
      server.child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('on the embedded database with Redis up, runs the keeper in its own process', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-pglite-'));
    const prefix = `svc:test:${randomBytes(6).toString('hex')}:keeper`;
    const keeperKey = `keeper-${randomBytes(12).toString('hex')}`;
    const server = startServer({
      HOST: '127.0.0.1',
      SVC_DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
      SVC_KEEPER_PREFIX: prefix,
      SVC_KEEPER_APY_REFRESH_EVERY_MS: '0',
      SVC_API_KEYS: JSON.stringify([{ key: keeperKey, role: 'keeper', wallets: [] }]),
      LOG_LEVEL: 'info',
    });
    const redis = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379');
    try {
      const port = await server.ready;
      const survival = await fetch(`http://127.0.0.1:${port}/api/v1/svc/keeper/survival`, {
        headers: { 'X-API-Key': keeperKey },
      });
      expect(await survival.json()).toMatchObject({
        alive: true,
        heartbeat: { mode: 'in-api' },
      });
      server.child.kill('SIGTERM');
      expect(await server.stopped).toBe(0);
      // It stopped with the API: the heartbeat is withdrawn.
      expect(await redis.exists(`${prefix}:keeper:heartbeat`)).toBe(0);
    } finally {
      server.child.kill('SIGKILL');
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses to start with an invalid setting, saying which', async () => {
    const server = startServer({ SVC_BASE_BROADCAST_ENABLED: 'true' });
    await expect(server.ready).rejects.toThrow(
      /configuration error: invalid setting SVC_BASE_BROADCAST_ENABLED/,
    );
  });
});
