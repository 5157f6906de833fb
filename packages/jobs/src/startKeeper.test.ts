import { Queue } from 'bullmq';
import { verifyLedger } from '@yieldrouter/ledger';
import type { ApyReader } from '@yieldrouter/engine';
import { OpsHealthDocument } from '@yieldrouter/schemas';
import { JOB_NAMES } from './jobs/jobCatalog';
import { enqueueKeeperJob, jobOptions } from './keeperQueues';
import { startHealthServer } from './healthServer';
import { readOpsHealth } from './state/readOpsHealth';
import { REDIS_URL, offlineApyReader, useKeeperTestBed, waitFor } from './testing/keeperTestBed';

// The keeper on real Redis and PostgreSQL: schedulers, workers, run records, heartbeat, health.

const keepers = useKeeperTestBed();
const start = keepers.start;
const survival = keepers.survival;
const queue = (name: string) =>
  new Queue(name, { connection: keepers.bed.redis, prefix: keepers.bed.prefix });

describe('job schedulers', () => {
  it('upserts one scheduler per job with its cadence and retry policy; restarts converge', async () => {
    const first = await start({ SVC_KEEPER_SETTLEMENT_WATCH_EVERY_MS: '60000' });
    const watch = await first.queues['settlement-watch'].getJobScheduler('settlement-watch');
    expect(watch).toMatchObject({ every: 60_000, template: { data: { trigger: 'schedule' } } });
    expect(watch?.template?.opts).toMatchObject({
      attempts: 3,
      backoff: { type: 'exponential', delay: 5000 },
    });
    for (const name of JOB_NAMES) {
      expect(await first.queues[name].getJobSchedulersCount()).toBe(1);
    }
    await first.close();

    // A restart with other cadences updates the schedules in place; 0 removes one.
    const second = await start({
      SVC_KEEPER_SETTLEMENT_WATCH_EVERY_MS: '120000',
      SVC_KEEPER_IDEMPOTENCY_SWEEP_EVERY_MS: '0',
    });
    expect(
      (await second.queues['settlement-watch'].getJobScheduler('settlement-watch'))?.every,
    ).toBe(120_000);
    expect(await second.queues['settlement-watch'].getJobSchedulersCount()).toBe(1);
    expect(await second.queues['idempotency-sweep'].getJobSchedulersCount()).toBe(0);
    expect(jobOptions('apy-refresh')).toMatchObject({ attempts: 3 });
  });

  it('scheduled runs happen at the cadence and are recorded', async () => {
    await start({ SVC_KEEPER_SETTLEMENT_WATCH_EVERY_MS: '300' });
    const watched = await waitFor(async () => {
      const job = (await survival()).jobs.find((entry) => entry.job === 'settlement-watch');
      return job?.lastRun && job.lastRun.ok ? job : undefined;
    });
    expect(watched.lastRun).toMatchObject({
      trigger: 'schedule',
      attempt: 1,
      counts: { checked: 0, confirmed: 0 },
      error: null,
    });
    expect(watched.everyMs).toBe(300);
    expect(watched.lastSuccessAgeMs).toBeLessThan(30_000);
  });
});

describe('retries and backoff', () => {
  it('a failing run is retried with its backoff; each attempt is recorded', async () => {
    let calls = 0;
    const flaky: ApyReader = {
      source: 'test',
      read: async (queries) => {
        calls += 1;
        if (calls < 3) throw new Error(`source down (${calls})`);
        return offlineApyReader.read(queries);
      },
    };
    const keeper = await start({ SVC_KEEPER_APY_REFRESH_EVERY_MS: '0' }, flaky);
    const failures = (await survival()).jobs.find((job) => job.job === 'apy-refresh')?.failures;
    // The catalog's policy, with a short fixed delay so the test does not wait 30 s.
    const added = await keeper.queues['apy-refresh'].add(
      'apy-refresh',
      { trigger: 'manual' },
      { ...jobOptions('apy-refresh'), backoff: { type: 'fixed', delay: 300 } },
    );
    const done = await waitFor(async () => {
      const job = await keeper.queues['apy-refresh'].getJob(added.id ?? '');
      return job?.finishedOn ? job : undefined;
    });
    expect(done.attemptsMade).toBe(3);
    expect(await done.getState()).toBe('completed');
    expect(done.returnvalue).toMatchObject({ unavailable: expect.any(Number) });
    // Two waits of at least the backoff between three attempts.
    expect((done.finishedOn ?? 0) - done.timestamp).toBeGreaterThanOrEqual(600);
    const job = (await survival()).jobs.find((entry) => entry.job === 'apy-refresh');
    expect(job?.failures).toBe((failures ?? 0) + 2);
    expect(job?.lastRun).toMatchObject({ ok: true, attempt: 3, trigger: 'manual' });
  });

  it('a job that keeps failing ends failed after its attempts; a bad payload is not retried', async () => {
    const down: ApyReader = {
      source: 'test',
      read: async () => {
        throw new Error('source down');
      },
    };
    const keeper = await start({ SVC_KEEPER_APY_REFRESH_EVERY_MS: '0' }, down);
    const q = keeper.queues['apy-refresh'];
    const exhausted = await q.add(
      'apy-refresh',
      { trigger: 'manual' },
      { attempts: 2, backoff: { type: 'fixed', delay: 100 } },
    );
    const bad = await q.add('apy-refresh', { trigger: 'manual', extra: 1 }, { attempts: 5 });
    const failed = await waitFor(async () => {
      const [a, b] = await Promise.all([q.getJob(exhausted.id ?? ''), q.getJob(bad.id ?? '')]);
      return a?.finishedOn && b?.finishedOn ? [a, b] : undefined;
    });
    expect(failed[0]).toMatchObject({ attemptsMade: 2, failedReason: 'source down' });
    expect(failed[1]?.attemptsMade).toBe(1);
    expect(failed[1]?.failedReason).toMatch(/bad job data/);
    expect((await q.getJobCounts('failed'))['failed']).toBeGreaterThanOrEqual(2);
  });
});

describe('survival and health', () => {
  it('a heartbeat while running; gone after close', async () => {
    const keeper = await start();
    const alive = await survival();
    expect(alive).toMatchObject({ alive: true, reason: null });
    expect(alive.heartbeat).toMatchObject({ pid: process.pid, mode: 'process', staleAfterMs: 600 });
    expect(alive.jobs.map((job) => job.job)).toEqual(JOB_NAMES);
    await keeper.close();
    expect(await survival()).toMatchObject({ alive: false, reason: 'no_heartbeat' });
  });

  it('a manual run is queued once while it waits (stats refresh)', async () => {
    const keeper = await start({ SVC_KEEPER_APY_REFRESH_EVERY_MS: '0' });
    await keeper.queues['apy-refresh'].pause();
    const [a, b] = [
      await enqueueKeeperJob(keeper.queues, 'apy-refresh'),
      await enqueueKeeperJob(keeper.queues, 'apy-refresh'),
    ];
    expect(b.id).toBe(a.id);
    await keeper.queues['apy-refresh'].resume();
    await waitFor(async () => ((await a.getState()) === 'completed' ? true : undefined));
  });

  it('/health and /metrics: depths, lag, failures, dependencies', async () => {
    // The sweep's own schedule off: its first scheduled run would wait in the paused queue too.
    const keeper = await start({
      SVC_KEEPER_APY_REFRESH_EVERY_MS: '0',
      SVC_KEEPER_IDEMPOTENCY_SWEEP_EVERY_MS: '0',
    });
    // A paused queue holds a waiting job: it shows as depth and lag.
    const sweep = queue('idempotency-sweep');
    await sweep.pause();
    await sweep.add('idempotency-sweep', { trigger: 'manual' });
    const read = () =>
      readOpsHealth({
        db: keepers.bed.database.db,
        redis: keeper.redis,
        queues: keeper.queues,
        jobs: JOB_NAMES,
        prefix: keepers.bed.prefix,
        now: () => new Date(),
      });
    const server = await startHealthServer(read, { host: '127.0.0.1', port: 0 });
    try {
      await new Promise((resolve) => setTimeout(resolve, 30));
      const health = OpsHealthDocument.parse(
        await (await fetch(`http://127.0.0.1:${server.port}/health`)).json(),
      );
      expect(health).toMatchObject({
        schemaVersion: 'svc-ops-health.v1',
        status: 'ok',
        database: { status: 'up' },
        redis: { status: 'up' },
        keeper: { alive: true },
      });
      const depth = health.queues.find((entry) => entry.job === 'idempotency-sweep');
      expect(depth).toMatchObject({ waiting: 1, active: 0 });
      expect(depth?.oldestWaitingAgeMs).toBeGreaterThanOrEqual(0);
      const metrics = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
      const text = await metrics.text();
      expect(text).toContain('svc_keeper_up 1');
      expect(text).toContain('svc_keeper_queue_jobs{job="idempotency-sweep",state="waiting"} 1');
      expect(text).toContain('svc_dependency_up{dependency="database"} 1');
      expect((await fetch(`http://127.0.0.1:${server.port}/nope`)).status).toBe(404);
    } finally {
      await sweep.obliterate({ force: true });
      await sweep.close();
      await server.close();
    }
  });

  it('ops health says down when Redis cannot be reached, and never throws', async () => {
    const health = await readOpsHealth({
      db: keepers.bed.database.db,
      redis: null,
      queues: null,
      jobs: JOB_NAMES,
      prefix: keepers.bed.prefix,
      now: () => new Date(),
    });
    expect(health).toMatchObject({
      status: 'down',
      redis: { status: 'down', detail: 'not configured' },
      keeper: { alive: false, reason: 'redis_unavailable' },
      queues: [],
    });
    expect(REDIS_URL).toBeTruthy();
    expect((await verifyLedger(keepers.bed.database.db)).ok).toBe(true);
  });
});
