import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { OpsHealthDocument } from '@yieldrouter/schemas';
import {
  createHttpMetrics,
  createKeeperMetrics,
  createLedgerMetrics,
  createMetricsRegistry,
  registerOpsHealthMetrics,
  renderRegistry,
} from './index';
import { parseMetrics, sampleValue } from './testing/parseMetrics';

const job = (
  name: string,
  overrides: Partial<OpsHealthDocument['keeper']['jobs'][number]> = {},
) => ({
  job: name,
  everyMs: 1000,
  lastRun: null,
  lastSuccessAt: null,
  lastSuccessAgeMs: null,
  failures: 0,
  overdue: false,
  lastStartedAt: null,
  stalled: false,
  ...overrides,
});

const health = (stalled: boolean): OpsHealthDocument => ({
  schemaVersion: 'svc-ops-health.v1',
  status: 'ok',
  checkedAt: new Date(0).toISOString(),
  database: { status: 'up', latencyMs: 1, detail: null },
  redis: { status: 'down', latencyMs: null, detail: 'gone' },
  keeper: {
    schemaVersion: 'svc-keeper-survival.v1',
    alive: true,
    reason: null,
    checkedAt: new Date(0).toISOString(),
    heartbeat: null,
    jobs: [
      job('apy-refresh', { failures: 2, lastSuccessAgeMs: 1500 }),
      job('outbox-relay', { stalled }),
    ],
  },
  queues: [
    {
      job: 'apy-refresh',
      queue: 'apy-refresh',
      waiting: 3,
      active: 1,
      delayed: 0,
      failed: 4,
      oldestWaitingAgeMs: 2500,
    },
  ],
});

describe('metrics registry', () => {
  it('keeps the ops health gauge names and reads the document once per scrape', async () => {
    const registry = createMetricsRegistry();
    let reads = 0;
    let stalled = false;
    registerOpsHealthMetrics(registry, {
      read: async () => {
        reads += 1;
        return health(stalled);
      },
      healthy: (doc) => !doc.keeper.jobs.some((entry) => entry.stalled),
      backlog: async () => ({
        pendingDeliveries: 2,
        oldestPendingDeliveryAgeMs: 4000,
        apyAgeMs: [
          { venue: 'aave-v3-base-usdc', ageMs: 60_000 },
          { venue: 'never-read', ageMs: null },
        ],
      }),
    });
    const first = parseMetrics((await renderRegistry(registry)).body);
    expect(reads).toBe(1);
    expect(sampleValue(first, 'svc_keeper_up')).toBe(1);
    expect(sampleValue(first, 'svc_keeper_job_stalled', { job: 'outbox-relay' })).toBe(0);
    expect(sampleValue(first, 'svc_dependency_up', { dependency: 'redis' })).toBe(0);
    expect(
      sampleValue(first, 'svc_keeper_queue_jobs', { job: 'apy-refresh', state: 'failed' }),
    ).toBe(4);
    expect(sampleValue(first, 'svc_keeper_queue_lag_seconds', { job: 'apy-refresh' })).toBe(2.5);
    expect(sampleValue(first, 'svc_keeper_job_failures', { job: 'apy-refresh' })).toBe(2);
    expect(
      sampleValue(first, 'svc_keeper_job_last_success_age_seconds', { job: 'outbox-relay' }),
    ).toBeUndefined();
    expect(sampleValue(first, 'svc_webhook_oldest_pending_age_seconds')).toBe(4);
    expect(sampleValue(first, 'svc_apy_sample_age_seconds', { venue: 'aave-v3-base-usdc' })).toBe(
      60,
    );
    expect(
      sampleValue(first, 'svc_apy_sample_age_seconds', { venue: 'never-read' }),
    ).toBeUndefined();
    expect(sampleValue(first, 'process_cpu_user_seconds_total')).toBeGreaterThanOrEqual(0);
    stalled = true;
    const second = parseMetrics((await renderRegistry(registry)).body);
    expect(reads).toBe(2);
    expect(sampleValue(second, 'svc_keeper_up')).toBe(0);
    expect(sampleValue(second, 'svc_keeper_job_stalled', { job: 'outbox-relay' })).toBe(1);
  });

  it('counts requests, replays, refusals, writes and job runs', async () => {
    const registry = createMetricsRegistry();
    const http = createHttpMetrics(registry);
    const ledger = createLedgerMetrics(registry);
    const keeper = createKeeperMetrics(registry);
    http.request('/api/v1/venues/{venueId}', 'GET', 200, 0.002);
    http.request('/api/v1/venues/{venueId}', 'GET', 200, 0.02);
    http.request('/api/v1/venues/{venueId}', 'GET', 200, 0.005); // le is inclusive
    http.request('/api/v1/venues/{venueId}', 'GET', 200, 99);
    http.idempotencyReplay('routeWallet');
    http.rateLimited('public');
    ledger.ledgerWrite('settleLeg', 0.01, true);
    keeper.jobRun('webhook-delivery', true, 0.3, { delivered: 2, retrying: 1 });
    keeper.jobRun('apy-refresh', false, 1, {});
    keeper.jobLag('apy-refresh', 0.5);
    keeper.settlement('base', 'confirmed', 12);
    const samples = parseMetrics((await renderRegistry(registry)).body);
    const route = { route: '/api/v1/venues/{venueId}', method: 'GET', status: '200' };
    expect(sampleValue(samples, 'svc_http_request_duration_seconds_count', route)).toBe(4);
    expect(sampleValue(samples, 'svc_http_request_duration_seconds_sum', route)).toBeCloseTo(
      99.027,
    );
    expect(
      sampleValue(samples, 'svc_http_request_duration_seconds_bucket', { ...route, le: '10' }),
    ).toBe(3);
    expect(
      sampleValue(samples, 'svc_http_request_duration_seconds_bucket', { ...route, le: '+Inf' }),
    ).toBe(4);
    expect(
      sampleValue(samples, 'svc_http_request_duration_seconds_bucket', { ...route, le: '0.005' }),
    ).toBe(2);
    expect(
      sampleValue(samples, 'svc_idempotency_replays_total', { operation: 'routeWallet' }),
    ).toBe(1);
    expect(sampleValue(samples, 'svc_rate_limited_total', { scope: 'public' })).toBe(1);
    expect(
      sampleValue(samples, 'svc_ledger_write_duration_seconds_count', {
        operation: 'settleLeg',
        outcome: 'ok',
      }),
    ).toBe(1);
    expect(sampleValue(samples, 'svc_webhook_deliveries_total', { outcome: 'delivered' })).toBe(2);
    expect(sampleValue(samples, 'svc_webhook_deliveries_total', { outcome: 'failed' })).toBe(0);
    expect(
      sampleValue(samples, 'svc_keeper_job_runs_total', { job: 'apy-refresh', outcome: 'failed' }),
    ).toBe(1);
    expect(sampleValue(samples, 'svc_keeper_job_lag_seconds_sum', { job: 'apy-refresh' })).toBe(
      0.5,
    );
    expect(
      sampleValue(samples, 'svc_settlement_latency_seconds_count', {
        chain: 'base',
        outcome: 'confirmed',
      }),
    ).toBe(1);
  });

  it('the parser refuses what Prometheus would refuse', () => {
    expect(() => parseMetrics('# TYPE a counter\na{b="c} 1\n')).toThrow(/not a sample/);
    expect(() => parseMetrics('a 1\n')).toThrow(/untyped family/);
    expect(() => parseMetrics('# TYPE a gauge\n# TYPE a gauge\n')).toThrow(/typed twice/);
    expect(() => parseMetrics('# TYPE a gauge\na one\n')).toThrow(/not a sample/);
    expect(parseMetrics('# HELP a x\n# TYPE a gauge\na{b="c\\"d"} 1.5\n')).toEqual([
      { name: 'a', labels: { b: 'c\\"d' }, value: 1.5 },
    ]);
  });
});

describe('the Grafana dashboard (tooling/grafana/yield-router.json)', () => {
  it('queries only metrics these collectors register', async () => {
    const path = join(__dirname, '../../../tooling/grafana/yield-router.json');
    const dashboard = JSON.parse(await readFile(path, 'utf8')) as {
      panels: Array<{ targets?: Array<{ expr: string }> }>;
    };
    const registry = createMetricsRegistry();
    createHttpMetrics(registry);
    createLedgerMetrics(registry);
    createKeeperMetrics(registry);
    registerOpsHealthMetrics(registry, {
      read: async () => health(false),
      healthy: () => true,
      backlog: async () => ({
        pendingDeliveries: 0,
        oldestPendingDeliveryAgeMs: null,
        apyAgeMs: [],
      }),
    });
    const known = new Set(
      (await registry.getMetricsAsJSON()).flatMap((metric) =>
        String(metric.type) === 'histogram'
          ? ['_bucket', '_count', '_sum'].map((suffix) => `${metric.name}${suffix}`)
          : [metric.name],
      ),
    );
    const queried = dashboard.panels
      .flatMap((panel) => panel.targets ?? [])
      .flatMap((target) => target.expr.match(/\b(svc|process|nodejs)_[a-z_]+/g) ?? []);
    expect(queried.length).toBeGreaterThan(20);
    expect(queried.filter((name) => !known.has(name))).toEqual([]);
  });
});
