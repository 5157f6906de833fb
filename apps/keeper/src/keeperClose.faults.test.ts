import { Redis } from 'ioredis';
import type { ApyReader } from '@yieldrouter/engine';
import { startPrivateRedis } from '@yieldrouter/faults';
import type { PrivateRedis } from '@yieldrouter/faults';
import { KEEPER_DRAIN_QUIET_MS, startKeeper } from '@yieldrouter/jobs';
import type { RunningKeeper } from '@yieldrouter/jobs';
import type { KeeperTestBed } from '@yieldrouter/jobs/testing';
import { lastRunOf as lastRunOfPrefix } from './testing/lastRun';
import {
  offlineApyReader,
  silentLogger,
  startKeeperTestBed,
  waitFor,
} from '@yieldrouter/jobs/testing';

// The keeper in this process on a Redis of its own that restarts empty (no persistence). A
// close right after the restart (or during it) finds BullMQ's blocking connections between two
// reconnect attempts; Worker.close() then never resolves, and the drain used to wait out its
// whole deadline with no job running. It ends once no job of ours runs.

jest.setTimeout(60_000);

/** What an orchestrator's SIGTERM gets: the process's default drain deadline (25 s) less 1 s. */
const DRAIN_MS = 24_000;
/** The drain past its last job: the quiet grace, as long again for hung closes, then Redis. */
const BOUND_MS = 2 * KEEPER_DRAIN_QUIET_MS + 3000;

let bed: KeeperTestBed;
let redisServer: PrivateRedis;
let redis: Redis;
const keepers: RunningKeeper[] = [];

beforeAll(async () => {
  [bed, redisServer] = await Promise.all([startKeeperTestBed(), startPrivateRedis()]);
  redis = new Redis(redisServer.url, { maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
});
afterEach(async () => {
  // A test that failed may leave its keeper running.
  await Promise.all(keepers.splice(0).map((keeper) => keeper.close({ timeoutMs: 1000 })));
});
afterAll(async () => {
  redis?.disconnect();
  await redisServer?.stop();
  await bed?.close();
});

const lastRunOf = (job: string) => lastRunOfPrefix(redis, bed.prefix, job);
/** This keeper's workers are up and fetching: a scheduled relay ran since it started. */
const relayRan = (since: number) =>
  waitFor(
    async () => {
      const run = await lastRunOf('outbox-relay');
      return run && Date.parse(run.startedAt) > since ? run : undefined;
    },
    10_000,
    'a relay run',
  );
/** A keeper on the private Redis, once its workers are up. */
const start = async (apyReader: ApyReader = offlineApyReader) => {
  const started = Date.now();
  const keeper = await startKeeper({
    db: bed.database.db,
    config: bed.config({
      REDIS_URL: redisServer.url,
      SVC_KEEPER_HEARTBEAT_MS: '500',
      SVC_KEEPER_OUTBOX_RELAY_EVERY_MS: '500',
      SVC_KEEPER_APY_REFRESH_EVERY_MS: '0',
      SVC_KEEPER_HARVEST_BATCH_EVERY_MS: '0',
      SVC_KEEPER_IDEMPOTENCY_SWEEP_EVERY_MS: '0',
    }),
    logger: silentLogger,
    apyReader,
  });
  keepers.push(keeper);
  await relayRan(started);
  return keeper;
};
/** Closes `keeper` as the keeper process does on SIGTERM; resolves with how long it took. */
const close = async (keeper: RunningKeeper) => {
  keepers.splice(keepers.indexOf(keeper), 1);
  const started = Date.now();
  const { released } = await keeper.close({ timeoutMs: DRAIN_MS });
  return { released, ms: Date.now() - started };
};

describe('keeper close: Redis restarted empty', () => {
  it('right after the restart: returns within seconds, nothing to release', async () => {
    // Whether a worker's close hangs depends on where its blocking connection is in its
    // reconnect cycle: a few rounds, each bounded by the assertion.
    for (let round = 0; round < 3; round += 1) {
      const keeper = await start();
      await redisServer.restartEmpty({ downMs: 1000 });
      const { released, ms } = await close(keeper);
      expect({ round, released }).toEqual({ round, released: 0 });
      expect(ms).toBeLessThan(BOUND_MS);
    }
  });

  it('during the outage: returns within seconds of Redis coming back', async () => {
    const keeper = await start();
    const reconnecting = () => new Promise((resolve) => keeper.redis.once('reconnecting', resolve));
    const lost = reconnecting();
    const restarting = redisServer.restartEmpty({ downMs: 1500 });
    // A first reconnect attempt failed: every connection of the keeper (BullMQ's blocking ones
    // too) lost its socket with the server and waits for its next attempt.
    await lost;
    await reconnecting();
    const closing = close(keeper);
    await restarting;
    const back = Date.now();
    const { released } = await closing;
    expect(released).toBe(0);
    expect(Date.now() - back).toBeLessThan(BOUND_MS);
  });

  it('a job running across the restart runs to its end; the drain ends right after it', async () => {
    let reading: () => void = () => undefined;
    const read = new Promise<void>((resolve) => (reading = resolve));
    let finish: () => void = () => undefined;
    const slow: ApyReader = {
      source: 'test',
      read: (queries) =>
        new Promise((resolve) => {
          finish = () => void offlineApyReader.read(queries).then(resolve);
          reading();
        }),
    };
    const keeper = await start(slow);
    await keeper.queues['apy-refresh'].add('apy-refresh', { trigger: 'manual' });
    await read;
    await redisServer.restartEmpty({ downMs: 1000 });
    let closedAt: number | undefined;
    const closing = close(keeper).then((result) => {
      closedAt = Date.now();
      return result;
    });
    // Held well past the drain's quiet grace: a running job keeps the drain open.
    await new Promise((resolve) => setTimeout(resolve, 3 * KEEPER_DRAIN_QUIET_MS));
    expect(closedAt).toBeUndefined();
    const finishedAt = Date.now();
    finish();
    const { released } = await closing;
    expect(released).toBe(0);
    expect((closedAt ?? Infinity) - finishedAt).toBeLessThan(BOUND_MS);
    // It ran to its end: its run is recorded (in the Redis that came back).
    expect(await lastRunOf('apy-refresh')).toMatchObject({ ok: true });
  });
});
