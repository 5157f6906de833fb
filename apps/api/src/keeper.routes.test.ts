import request from 'supertest';
import pino from 'pino';
import type { RunningKeeper } from '@yieldrouter/jobs';
import {
  KeeperEnqueueResult,
  KeeperSurvivalDocument,
  OpsHealthDocument,
} from '@yieldrouter/schemas';
import type { YieldsServer } from '@yieldrouter/chain-beds/yields';
import { makeYieldsPool, startYieldsServer } from '@yieldrouter/chain-beds/yields';
import { createApp } from './app';
import type { TestApp } from './testing/startTestApp';
import { settlementWatchKeeperSettings, startInApiKeeper } from './testing/startInApiKeeper';
import { startTestApp, testKeys } from './testing/startTestApp';

// The keeper-only routes against a keeper running on the same Redis prefix and database.

let t: TestApp;
let yields: YieldsServer;
let keeper: RunningKeeper | undefined;
beforeAll(async () => {
  yields = await startYieldsServer({
    pools: [
      makeYieldsPool({ pool: 'pool-kamino', chain: 'Solana', project: 'kamino-lend', apy: 6.5 }),
    ],
  });
  t = await startTestApp({
    SVC_APY_BASE_URL: yields.url,
    SVC_APY_POOLS: JSON.stringify({ kamino: 'pool-kamino' }),
    ...settlementWatchKeeperSettings,
  });
});
afterAll(async () => {
  await keeper?.close();
  await t.close();
  await yields.stop();
});

const get = (path: string, key?: string) => {
  const call = request(t.app).get(`/api/v1${path}`);
  return key ? call.set('X-API-Key', key) : call;
};
const post = (path: string, key?: string) => {
  const call = request(t.app).post(`/api/v1${path}`);
  return key ? call.set('X-API-Key', key) : call;
};
const until = async (probe: () => Promise<boolean>) => {
  const deadline = Date.now() + 15_000;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe('keeper-only routes: roles', () => {
  it.each([
    ['get', '/svc/keeper/survival'],
    ['get', '/svc/ops/health'],
    ['post', '/svc/keeper/stats/refresh'],
    ['post', '/svc/keeper/harvest-batch'],
  ] as const)('%s %s: keeper only', async (method, path) => {
    const call = method === 'get' ? get : post;
    expect((await call(path).expect(401)).body.code).toBe('UNAUTHORIZED');
    for (const key of [testKeys.owner, testKeys.agent]) {
      expect((await call(path, key).expect(403)).body.code).toBe('UNAUTHORIZED');
    }
    expect((await call(path, 'not-a-key-at-all-0000').expect(401)).body.code).toBe(
      'INVALID_API_KEY',
    );
  });
});

describe('keeper-only routes: payloads', () => {
  it('survival without a keeper: 200, alive false, every job listed', async () => {
    const body = KeeperSurvivalDocument.parse(
      (await get('/svc/keeper/survival', testKeys.keeper).expect(200)).body,
    );
    expect(body).toMatchObject({ alive: false, reason: 'no_heartbeat', heartbeat: null });
    expect(body.jobs.map((job) => job.job)).toEqual([
      'apy-refresh',
      'settlement-watch',
      'leg-expiry',
      'bridge-expiry',
      'bridge-watch',
      'idempotency-sweep',
      'harvest-batch',
      'autopilot-ticks',
      'reconciliation',
      'outbox-relay',
      'webhook-delivery',
    ]);
    const health = OpsHealthDocument.parse(
      (await get('/svc/ops/health', testKeys.keeper).expect(200)).body,
    );
    expect(health).toMatchObject({ status: 'degraded', keeper: { alive: false } });
  });

  it('with a keeper: survival shows its heartbeat and runs, ops health its queues', async () => {
    keeper = await startInApiKeeper(t);
    // Until the settlement watch has run and its last success is within two cadences (400 ms):
    // on a loaded machine a read can land in a gap longer than that, and the route then rightly
    // says overdue; a keeper that never runs it, or never on time, still fails here.
    let body: unknown;
    await until(async () => {
      const read = await get('/svc/keeper/survival', testKeys.keeper).expect(200);
      body = read.body;
      const watch = read.body.jobs?.find((job: { job: string }) => job.job === 'settlement-watch');
      return watch?.lastRun !== null && watch?.lastRun !== undefined && watch.overdue === false;
    });
    const survival = KeeperSurvivalDocument.parse(body);
    expect(survival).toMatchObject({ alive: true, reason: null, heartbeat: { mode: 'in-api' } });
    const watch = survival.jobs.find((job) => job.job === 'settlement-watch');
    expect(watch).toMatchObject({ everyMs: 200, failures: 0, overdue: false });
    expect(watch?.lastRun).toMatchObject({ ok: true, trigger: 'schedule' });
    expect(survival.jobs.find((job) => job.job === 'apy-refresh')?.everyMs).toBe(0);

    const health = OpsHealthDocument.parse(
      (await get('/svc/ops/health', testKeys.keeper).expect(200)).body,
    );
    expect(health).toMatchObject({
      status: 'ok',
      database: { status: 'up' },
      redis: { status: 'up' },
      keeper: { alive: true },
    });
    expect(health.queues.map((queue) => queue.job).sort()).toEqual([
      'apy-refresh',
      'autopilot-ticks',
      'bridge-expiry',
      'bridge-watch',
      'harvest-batch',
      'idempotency-sweep',
      'leg-expiry',
      'outbox-relay',
      'reconciliation',
      'settlement-watch',
      'webhook-delivery',
    ]);
  });

  it('stats refresh queues an APY refresh the keeper runs', async () => {
    const before = await t.db.apySample.count();
    const res = await post('/svc/keeper/stats/refresh', testKeys.keeper).expect(202);
    const queued = KeeperEnqueueResult.parse(res.body);
    expect(queued).toMatchObject({ job: 'apy-refresh', keeperAlive: true });
    expect(queued.jobId).not.toBe('');
    await until(async () => (await t.db.apySample.count()) > before);
    await until(async () => {
      const body = (await get('/svc/keeper/survival', testKeys.keeper)).body;
      const refresh = body.jobs.find((job: { job: string }) => job.job === 'apy-refresh');
      return refresh?.lastRun?.ok === true && refresh.lastRun.trigger === 'manual';
    });
    const kamino = await t.db.apySample.findFirst({
      where: { venueId: 'kamino' },
      orderBy: { observedAt: 'desc' },
    });
    expect(kamino?.status).toBe('ok');
  });

  it('harvest batch: queued for the keeper, which runs it over the staked wallets', async () => {
    const res = await post('/svc/keeper/harvest-batch', testKeys.keeper)
      .send({ chain: 'solana', pageSize: 50 })
      .expect(202);
    expect(KeeperEnqueueResult.parse(res.body)).toMatchObject({
      job: 'harvest-batch',
      keeperAlive: true,
    });
    await until(async () => {
      const body = (await get('/svc/keeper/survival', testKeys.keeper)).body;
      const batch = body.jobs.find((job: { job: string }) => job.job === 'harvest-batch');
      return batch?.lastRun?.ok === true && batch.lastRun.trigger === 'manual';
    });
    const bad = await post('/svc/keeper/harvest-batch', testKeys.keeper)
      .send({ pageSize: 0 })
      .expect(400);
    expect(bad.body.message).toContain('body.pageSize');
  });

  it('without Redis: survival and health say so; stats refresh is 503', async () => {
    const app = createApp({
      config: t.config,
      db: t.db,
      redis: null,
      logger: pino({ level: 'silent' }),
    });
    const survival = await request(app)
      .get('/api/v1/svc/keeper/survival')
      .set('X-API-Key', testKeys.keeper)
      .expect(200);
    expect(survival.body).toMatchObject({ alive: false, reason: 'redis_unavailable' });
    const health = await request(app)
      .get('/api/v1/svc/ops/health')
      .set('X-API-Key', testKeys.keeper)
      .expect(200);
    expect(health.body).toMatchObject({
      status: 'down',
      database: { status: 'up' },
      redis: { status: 'down' },
    });
    const refresh = await request(app)
      .post('/api/v1/svc/keeper/stats/refresh')
      .set('X-API-Key', testKeys.keeper)
      .expect(503);
    expect(refresh.body.code).toBe('SERVICE_UNAVAILABLE');
  });
});
