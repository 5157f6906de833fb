import type { ApyReader } from '@yieldrouter/engine';
import { OpsHealthDocument } from '@yieldrouter/schemas';
import { startHealthServer } from './healthServer';
import { JOB_NAMES } from './jobs/jobCatalog';
import { keeperStateKeys } from './state/keeperStateKeys';
import { readOpsHealth } from './state/readOpsHealth';
import { writeHeartbeat } from './state/writeKeeperState';
import { offlineApyReader, useKeeperTestBed, waitFor } from './testing/keeperTestBed';

// The keeper heals what Redis loses (its job schedules), tells a keeper whose jobs do not run
// (503, svc_keeper_up 0) from one whose jobs run and fail, and releases jobs at a drain deadline.

const keepers = useKeeperTestBed({
  SVC_KEEPER_APY_REFRESH_EVERY_MS: '0',
  SVC_KEEPER_HARVEST_BATCH_EVERY_MS: '0',
  SVC_KEEPER_IDEMPOTENCY_SWEEP_EVERY_MS: '0',
});
const start = keepers.start;
const survival = keepers.survival;
const lastRunOf = async (job: string) =>
  (await survival()).jobs.find((entry) => entry.job === job)?.lastRun ?? undefined;

/** Serves the ops health of this bed's prefix on a free port; returns /health and /metrics. */
async function probe(): Promise<{ status: number; health: OpsHealthDocument; metrics: string }> {
  const server = await startHealthServer(
    () =>
      readOpsHealth({
        db: keepers.bed.database.db,
        redis: keepers.bed.redis,
        queues: null,
        jobs: JOB_NAMES,
        prefix: keepers.bed.prefix,
        now: () => new Date(),
      }),
    { host: '127.0.0.1', port: 0 },
  );
  try {
    const response = await fetch(`http://127.0.0.1:${server.port}/health`);
    const health = OpsHealthDocument.parse(await response.json());
    const metrics = await (await fetch(`http://127.0.0.1:${server.port}/metrics`)).text();
    return { status: response.status, health, metrics };
  } finally {
    await server.close();
  }
}

describe('job schedules lost in Redis', () => {
  it('are re-created by the keeper, and its jobs run again', async () => {
    const keeper = await start({ SVC_KEEPER_OUTBOX_RELAY_EVERY_MS: '300' });
    await waitFor(async () => lastRunOf('outbox-relay'), 10_000, 'a first outbox relay');
    // What a Redis restarted empty leaves: none of the keeper's keys (the connection stays up
    // here, so it is the keeper's timer that notices).
    // A relay running while the keys go may put its scheduler back as it finishes (BullMQ): the
    // keys are wiped until the loss holds, so what brings the schedule back is the keeper.
    const scheduler = () => keeper.queues['outbox-relay'].getJobScheduler('outbox-relay');
    for (let attempt = 0; attempt < 20; attempt += 1) {
      await keeper.queues['outbox-relay'].obliterate({ force: true });
      const keys = await keepers.bed.redis.keys(`${keepers.bed.prefix}:*`);
      if (keys.length > 0) await keepers.bed.redis.del(...keys);
      await new Promise((resolve) => setTimeout(resolve, 20));
      if ((await scheduler()) === undefined) break;
    }
    expect(await scheduler()).toBeUndefined();
    const lostAt = Date.now();
    await waitFor(
      async () => {
        const run = await lastRunOf('outbox-relay');
        return run && Date.parse(run.startedAt) > lostAt ? run : undefined;
      },
      10_000,
      'the relay running again',
    );
    expect(await keeper.queues['outbox-relay'].getJobScheduler('outbox-relay')).toMatchObject({
      every: 300,
    });
  });
});

describe('a keeper whose jobs do not run', () => {
  const heartbeat = (startedAgoMs: number) =>
    writeHeartbeat(keepers.bed.redis, keepers.bed.prefix, {
      at: new Date().toISOString(),
      startedAt: new Date(Date.now() - startedAgoMs).toISOString(),
      pid: 1,
      hostname: 'test',
      mode: 'process',
      staleAfterMs: 60_000,
      jobs: JOB_NAMES.map((job) => ({ job, everyMs: job === 'outbox-relay' ? 1000 : 0 })),
    });

  it('is stalled: /health 503 and svc_keeper_up 0, so an orchestrator restarts it', async () => {
    // Alive (a fresh heartbeat) for two minutes, and the 1 s relay never ran.
    await heartbeat(120_000);
    const { status, health, metrics } = await probe();
    expect(health.keeper.alive).toBe(true);
    expect(health.keeper.jobs.find((job) => job.job === 'outbox-relay')).toMatchObject({
      overdue: true,
      stalled: true,
    });
    expect(health.status).toBe('degraded');
    expect(status).toBe(503);
    expect(metrics).toContain('svc_keeper_up 0');
    expect(metrics).toContain('svc_keeper_job_stalled{job="outbox-relay"} 1');
  });

  it('a job that runs and fails is overdue, not stalled: 200 (a restart would not help)', async () => {
    await heartbeat(120_000);
    const keys = keeperStateKeys(keepers.bed.prefix);
    const at = new Date(Date.now() - 200).toISOString();
    await keepers.bed.redis.hset(keys.lastStart, 'outbox-relay', at);
    await keepers.bed.redis.hset(
      keys.lastRun,
      'outbox-relay',
      JSON.stringify({
        jobId: 'x',
        attempt: 1,
        trigger: 'schedule',
        startedAt: at,
        finishedAt: new Date().toISOString(),
        ok: false,
        durationMs: 200,
        counts: {},
        error: 'database unavailable',
      }),
    );
    const { status, health, metrics } = await probe();
    expect(health.keeper.jobs.find((job) => job.job === 'outbox-relay')).toMatchObject({
      overdue: true,
      stalled: false,
    });
    expect(status).toBe(200);
    expect(metrics).toContain('svc_keeper_up 1');
  });

  it('a run under way for longer than its cadence is not stalled', async () => {
    await heartbeat(120_000);
    const keys = keeperStateKeys(keepers.bed.prefix);
    await keepers.bed.redis.hset(
      keys.lastStart,
      'outbox-relay',
      new Date(Date.now() - 8000).toISOString(),
    );
    const { status, health } = await probe();
    expect(health.keeper.jobs.find((job) => job.job === 'outbox-relay')?.stalled).toBe(false);
    expect(status).toBe(200);
  });
});

describe('closing at a drain deadline', () => {
  it('releases a job still running back to its queue, and stops in time', async () => {
    let release: () => void = () => undefined;
    const slow: ApyReader = {
      source: 'test',
      read: (queries) =>
        new Promise((resolve) => {
          release = () => void offlineApyReader.read(queries).then(resolve);
        }),
    };
    const keeper = await start({}, slow);
    const job = await keeper.queues['apy-refresh'].add('apy-refresh', { trigger: 'manual' });
    await waitFor(async () => ((await job.getState()) === 'active' ? true : undefined));
    keepers.forget(keeper);
    const started = Date.now();
    const { released } = await keeper.close({ timeoutMs: 500 });
    expect(released).toBe(1);
    expect(Date.now() - started).toBeLessThan(10_000); // bounded, not hung
    // Back in its queue for another keeper (or the next start) to run.
    const next = await start({}, offlineApyReader);
    await waitFor(
      async () =>
        (await next.queues['apy-refresh'].getJob(job.id ?? ''))?.finishedOn ? true : undefined,
      10_000,
      'the released job finished by another keeper',
    );
    release();
  });
});
