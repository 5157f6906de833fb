import { randomUUID } from 'node:crypto';
import request from 'supertest';
import pino from 'pino';
import { JOB_NAMES, startKeeper } from '@yieldrouter/jobs';
import type { RunningKeeper } from '@yieldrouter/jobs';
import { createKeeperMetrics, createMetricsRegistry } from '@yieldrouter/metrics';
import { parseMetrics, sampleValue } from '@yieldrouter/metrics/testing';
import type { Sample } from '@yieldrouter/metrics/testing';
import type { TestApp } from './testing/startTestApp';
import { TEST_WALLET, startTestApp, testKeys } from './testing/startTestApp';

// GET /metrics after a scripted run: a few reads, a write and its replay, a 429, and a keeper
// job run by a keeper sharing the app's registry (as the in-process keeper does).
const VAULT = '0x52908400098527886E0F7030069857D2E4169EE7';
const OWNER = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';
const IP = '203.0.113.9';
const noSchedules = Object.fromEntries(
  JOB_NAMES.map((job) => [`SVC_KEEPER_${job.toUpperCase().replace(/-/g, '_')}_EVERY_MS`, '0']),
);

let t: TestApp;
let keeper: RunningKeeper;
beforeAll(async () => {
  const registry = createMetricsRegistry();
  t = await startTestApp(
    {
      ...noSchedules,
      SVC_TRUST_PROXY: 'true',
      SVC_RATE_LIMIT_PUBLIC: '3',
      SVC_VENUE_IDS: JSON.stringify({ morpho: { vault: VAULT } }),
    },
    { registry },
  );
  keeper = await startKeeper({
    db: t.db,
    config: t.config,
    logger: pino({ level: 'silent' }),
    observer: createKeeperMetrics(registry),
  });
});
afterAll(async () => {
  await keeper?.close();
  await t?.close();
});

const scrape = async (): Promise<Sample[]> => {
  const response = await request(t.app).get('/metrics').set('X-API-Key', testKeys.keeper);
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseMetrics(response.text);
};

const until = async (check: () => Promise<boolean>) => {
  for (let tries = 0; tries < 100; tries += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('timed out');
};

describe('GET /metrics', () => {
  it('is refused without a key, with an unknown key and with an owner or agent key', async () => {
    const none = await request(t.app).get('/metrics');
    expect(none.status).toBe(401);
    expect(none.body.code).toBe('UNAUTHORIZED');
    const unknown = await request(t.app).get('/metrics').set('X-API-Key', `nope-${randomUUID()}`);
    expect(unknown.status).toBe(401);
    for (const key of [testKeys.owner, testKeys.agent]) {
      const wrong = await request(t.app).get('/metrics').set('X-API-Key', key);
      expect(wrong.status).toBe(403);
      expect(wrong.text).not.toContain('svc_http_request_duration_seconds');
    }
  });

  it('counts what a scripted run did, by route template, never by raw path', async () => {
    const before = await scrape();
    const wallet = '/api/v1/wallets/{address}/position';
    const count = (samples: Sample[], labels: Record<string, string>) =>
      sampleValue(samples, 'svc_http_request_duration_seconds_count', labels) ?? 0;
    const ip = (path: string) => request(t.app).get(path).set('X-Forwarded-For', IP);
    // Three reads of a wallet, a deposit plan and its replay, then a 429.
    for (let i = 0; i < 3; i += 1) {
      await request(t.app)
        .get(`/api/v1/wallets/${TEST_WALLET}/position`)
        .set('X-API-Key', testKeys.owner)
        .expect(200);
    }
    const key = randomUUID();
    const deposit = () =>
      request(t.app)
        .post('/api/v1/svc/strategies/deposit/plan')
        .set('X-Forwarded-For', IP)
        .set('Idempotency-Key', key)
        .send({ strategyId: 'morpho', amountMicros: '25000000', owner: OWNER });
    await deposit().expect(200);
    expect((await deposit().expect(200)).headers['idempotent-replayed']).toBe('true');
    // The third public request from this address is the last the limit (3) allows.
    await ip('/api/v1/svc/venues').expect(200);
    await ip('/api/v1/svc/venues').expect(429);
    // A keeper job, queued through the API and run by the keeper.
    await request(t.app)
      .post('/api/v1/svc/keeper/harvest-batch')
      .set('X-API-Key', testKeys.keeper)
      .send({})
      .expect(202);
    await until(async () => {
      const runs = sampleValue(await scrape(), 'svc_keeper_job_runs_total', {
        job: 'harvest-batch',
        outcome: 'ok',
      });
      return runs === 1;
    });

    const after = await scrape();
    const get = { route: wallet, method: 'GET', status: '200' };
    expect(count(after, get) - count(before, get)).toBe(3);
    const plan = { route: '/api/v1/svc/strategies/deposit/plan', method: 'POST', status: '200' };
    expect(count(after, plan) - count(before, plan)).toBe(2);
    expect(count(after, { route: '/api/v1/svc/venues', status: '429' })).toBe(1);
    expect(after.some((sample) => JSON.stringify(sample.labels).includes(TEST_WALLET))).toBe(false);
    expect(
      sampleValue(after, 'svc_idempotency_replays_total', { operation: 'prepareDepositPlan' }),
    ).toBe(1);
    expect(sampleValue(after, 'svc_rate_limited_total', { scope: 'public' })).toBe(1);
    expect(
      sampleValue(after, 'svc_ledger_write_duration_seconds_count', {
        operation: 'prepareStrategyPlan',
        outcome: 'ok',
      }),
    ).toBe(1);
    expect(
      sampleValue(after, 'svc_keeper_job_duration_seconds_count', { job: 'harvest-batch' }),
    ).toBe(1);
    expect(sampleValue(after, 'svc_keeper_job_lag_seconds_count', { job: 'harvest-batch' })).toBe(
      1,
    );
    // Ops health gauges, read at the scrape.
    expect(sampleValue(after, 'svc_dependency_up', { dependency: 'database' })).toBe(1);
    expect(sampleValue(after, 'svc_keeper_up')).toBe(1);
    expect(sampleValue(after, 'svc_webhook_pending_deliveries')).toBe(0);
  });
});
