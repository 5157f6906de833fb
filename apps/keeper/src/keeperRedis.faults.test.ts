import { Redis } from 'ioredis';
import { spawnService, startPrivateRedis } from '@yieldrouter/faults';
import type { PrivateRedis, ServiceProcess } from '@yieldrouter/faults';
import {
  JOB_NAMES,
  cadenceSettingName,
  closeKeeperQueues,
  openKeeperQueues,
} from '@yieldrouter/jobs';
import type { JobName } from '@yieldrouter/jobs';
import type { KeeperTestBed } from '@yieldrouter/jobs/testing';
import { startKeeperTestBed, waitFor } from '@yieldrouter/jobs/testing';
import { lastRunOf } from './testing/lastRun';

// The keeper process on a Redis of its own that restarts empty (no persistence): it reconnects,
// re-creates its job schedules, its jobs run again, and its /health says so.

jest.setTimeout(120_000);

const DISABLED: readonly JobName[] = ['apy-refresh', 'harvest-batch', 'idempotency-sweep'];

let bed: KeeperTestBed;
let redisServer: PrivateRedis;
let redis: Redis;
let keeper: ServiceProcess | undefined;

beforeAll(async () => {
  [bed, redisServer] = await Promise.all([startKeeperTestBed(), startPrivateRedis()]);
  redis = new Redis(redisServer.url, { maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
});
afterAll(async () => {
  keeper?.kill('SIGKILL');
  await keeper?.exited;
  redis?.disconnect();
  await redisServer?.stop();
  await bed?.close();
});

const relayRunSince = async (since: number) => {
  const run = await lastRunOf(redis, bed.prefix, 'outbox-relay');
  return run && Date.parse(run.startedAt) > since ? run : undefined;
};

describe('keeper process: Redis restarts empty', () => {
  it('its jobs run again without a restart of the keeper, and /health is 200 with svc_keeper_up 1', async () => {
    keeper = spawnService(
      'keeper',
      bed.env({
        REDIS_URL: redisServer.url,
        LOG_LEVEL: 'info',
        SVC_KEEPER_HEARTBEAT_MS: '500',
        SVC_KEEPER_OUTBOX_RELAY_EVERY_MS: '1000',
        ...Object.fromEntries(DISABLED.map((name) => [cadenceSettingName(name), '0'])),
      }),
    );
    const port = await keeper.ready;
    const started = Date.now();
    await waitFor(() => relayRunSince(started), 20_000, 'a first relay run');

    await redisServer.restartEmpty({ downMs: 1000 });
    const restarted = Date.now();
    await waitFor(() => relayRunSince(restarted), 20_000, 'a relay run after the restart').catch(
      (error: unknown) => {
        throw new Error(`${String(error)}\n${keeper?.output().slice(-3000)}`);
      },
    );
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(health.status).toBe(200);
    expect(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()).toContain(
      'svc_keeper_up 1',
    );
    // Every scheduled job has its scheduler again: re-created by the keeper's check, or (for a
    // job that was running when Redis went away) put back by BullMQ as that job finished.
    const queues = openKeeperQueues(redis, bed.prefix, () => undefined);
    try {
      const scheduled = JOB_NAMES.filter((name) => !DISABLED.includes(name));
      await waitFor(
        async () => {
          const found = await Promise.all(
            scheduled.map((name) => queues[name].getJobScheduler(name)),
          );
          return found.every((scheduler) => scheduler !== undefined) || undefined;
        },
        10_000,
        'every job scheduler after the restart',
      );
    } finally {
      await closeKeeperQueues(queues);
    }

    // Its jobs run in milliseconds: the drain (default deadline, 25 s) ends as soon as none runs,
    // even when a BullMQ worker's close hangs after the restart.
    const stopping = Date.now();
    keeper.kill('SIGTERM');
    expect(await keeper.exited).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(8000);
    expect(keeper.output()).toMatch(/"msg":"stopped"/);
  });
});
