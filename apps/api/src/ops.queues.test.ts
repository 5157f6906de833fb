import request from 'supertest';
import { JOB_NAMES } from '@yieldrouter/jobs';
import { createApp } from './app';
import { QUEUE_DASHBOARD_CSP } from './http/opsEndpoints';
import { createLogger } from './logger';
import type { TestApp } from './testing/startTestApp';
import { startTestApp, testKeys } from './testing/startTestApp';

// /admin/queues: bull-board over the keeper's queues, keeper or owner key, read-only unless
// SVC_QUEUE_DASHBOARD_WRITE, 503 without Redis.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

interface BoardQueue {
  readonly name: string;
  readonly readOnlyMode: boolean;
  readonly allowRetries: boolean;
}

const queuesOf = async (app: TestApp['app'], key: string): Promise<BoardQueue[]> => {
  const response = await request(app).get('/admin/queues/api/queues').set('X-API-Key', key);
  expect(response.status).toBe(200);
  return (response.body as { queues: BoardQueue[] }).queues;
};

describe('/admin/queues', () => {
  it('is refused without a key, with an unknown key and with an agent key', async () => {
    for (const path of ['/admin/queues', '/admin/queues/api/queues']) {
      expect((await request(t.app).get(path)).status).toBe(401);
      expect(
        (await request(t.app).get(path).set('X-API-Key', 'unknown-key-0123456789')).status,
      ).toBe(401);
      const agent = await request(t.app).get(path).set('X-API-Key', testKeys.agent);
      expect(agent.status).toBe(403);
      expect(agent.text).not.toContain('harvest-batch');
    }
  });

  it('serves the page under its own CSP to owner and keeper keys', async () => {
    for (const key of [testKeys.owner, testKeys.keeper]) {
      const page = await request(t.app).get('/admin/queues').set('X-API-Key', key);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['content-security-policy']).toBe(QUEUE_DASHBOARD_CSP);
      expect(page.headers['cache-control']).toBe('no-store');
      // Every script the page loads is its own (the CSP allows no other).
      const scripts = [...page.text.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);
      expect(scripts.length).toBeGreaterThan(0);
      for (const src of scripts) expect(src).not.toMatch(/^(https?:)?\/\//);
      const first = await request(t.app)
        .get(`/admin/queues/${scripts[0] ?? ''}`)
        .set('X-API-Key', key);
      expect(first.status).toBe(200);
    }
    // The rest of the API keeps helmet's policy.
    const health = await request(t.app).get('/api/v1/health');
    expect(health.headers['content-security-policy']).not.toBe(QUEUE_DASHBOARD_CSP);
  });

  it('lists every keeper queue, read-only by default', async () => {
    const queues = await queuesOf(t.app, testKeys.keeper);
    expect(queues.map((queue) => queue.name).sort()).toEqual([...JOB_NAMES].sort());
    for (const queue of queues)
      expect(queue).toMatchObject({ readOnlyMode: true, allowRetries: false });
    const retry = await request(t.app)
      .put('/admin/queues/api/queues/harvest-batch/retry/failed')
      .set('X-API-Key', testKeys.keeper);
    expect(retry.status).toBeGreaterThanOrEqual(400);
  });

  it('allows retries with SVC_QUEUE_DASHBOARD_WRITE', async () => {
    const writable = createApp({
      config: { ...t.config, queueDashboardWrite: true },
      db: t.db,
      redis: t.redis,
      logger: createLogger('silent'),
    });
    const queues = await queuesOf(writable, testKeys.owner);
    for (const queue of queues)
      expect(queue).toMatchObject({ readOnlyMode: false, allowRetries: true });
  });

  it('answers 503 with a clear error without Redis', async () => {
    const noRedis = createApp({
      config: t.config,
      db: t.db,
      redis: null,
      logger: createLogger('silent'),
    });
    const response = await request(noRedis).get('/admin/queues').set('X-API-Key', testKeys.owner);
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(response.body.message).toMatch(/Redis is unreachable/);
    // /metrics still answers: the ops gauges say Redis is down.
    const metrics = await request(noRedis).get('/metrics').set('X-API-Key', testKeys.keeper);
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('svc_dependency_up{dependency="redis"} 0');
  });
});
