import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Redis } from 'ioredis';
import { createTestDatabase } from '@yieldrouter/ledger/testing';
import { servicesFor } from './launchServices';

jest.setTimeout(240_000);

describe('servicesFor', () => {
  it('embedded database: the API alone (it runs the keeper inside)', () => {
    expect(servicesFor({}).map((service) => service.name)).toEqual(['api']);
    expect(servicesFor({ DATABASE_URL: '' }).map((service) => service.name)).toEqual(['api']);
  });
  it('PostgreSQL: the API and the keeper, each from its app directory', () => {
    const services = servicesFor({ DATABASE_URL: 'postgresql://localhost/x' });
    expect(services.map((service) => [service.name, path.basename(service.dir)])).toEqual([
      ['api', 'api'],
      ['keeper', 'keeper'],
    ]);
  });
});

describe('pnpm start on PostgreSQL', () => {
  it('runs the API and the keeper as two processes; SIGTERM stops both, exit 0', async () => {
    const database = await createTestDatabase();
    const redisUrl = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
    const redis = new Redis(redisUrl);
    const prefix = `svc:test:${randomBytes(6).toString('hex')}:keeper`;
    const launcher = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: path.resolve(__dirname, '..'),
      env: {
        PATH: process.env['PATH'] ?? '',
        DATABASE_URL: database.url,
        REDIS_URL: redisUrl,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        SVC_KEEPER_PREFIX: prefix,
        SVC_KEEPER_HEALTH_PORT: '0',
        SVC_KEEPER_HEALTH_HOST: '127.0.0.1',
        SVC_KEEPER_APY_REFRESH_EVERY_MS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    launcher.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    launcher.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => launcher.once('exit', resolve));
    try {
      // Cold start from source on a busy 2-core machine: tsx compiles both apps first.
      const deadline = Date.now() + 150_000;
      while (!(output.includes('api listening') && output.includes('keeper started'))) {
        if (Date.now() > deadline) throw new Error(`not started:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const heartbeat = JSON.parse((await redis.get(`${prefix}:keeper:heartbeat`)) ?? '{}');
      expect(heartbeat).toMatchObject({ mode: 'process' });
      expect(heartbeat.pid).not.toBe(launcher.pid);
      launcher.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(output).toContain('keeper stopped');
      expect(output).toMatch(/"service":"api".*"msg":"stopped"/);
    } finally {
      launcher.kill('SIGKILL');
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
      await database.drop();
    }
  });
});
