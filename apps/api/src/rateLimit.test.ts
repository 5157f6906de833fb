import request from 'supertest';
import type { TestApp } from './testing/startTestApp';
import { startTestApp, testKeys } from './testing/startTestApp';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SVC_RATE_LIMIT_PUBLIC: '3', SVC_RATE_LIMIT_KEYED: '2' });
});
afterAll(async () => {
  await t.close();
});

describe('rate limiting (Redis-backed)', () => {
  it('public: the 4th request in the window gets 429 RATE_LIMITED with Retry-After', async () => {
    for (let i = 0; i < 3; i += 1) {
      const res = await request(t.app).get('/api/v1/svc/status').expect(200);
      expect(res.headers['ratelimit-limit']).toBe('3');
      expect(res.headers['ratelimit-remaining']).toBe(String(2 - i));
    }
    const limited = await request(t.app).get('/api/v1/svc/status').expect(429);
    expect(limited.body.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('keyed: counted per key, in Redis so every instance shares the budget', async () => {
    await request(t.app)
      .get('/api/v1/svc/keeper/survival')
      .set('X-API-Key', testKeys.keeper)
      .expect(200);
    await request(t.app)
      .get('/api/v1/svc/keeper/survival')
      .set('X-API-Key', testKeys.keeper)
      .expect(200);
    const limited = await request(t.app)
      .get('/api/v1/svc/keeper/survival')
      .set('X-API-Key', testKeys.keeper)
      .expect(429);
    expect(limited.body.code).toBe('RATE_LIMITED');
    const keys = await t.redis.keys('svc:test:*');
    expect(keys.length).toBeGreaterThan(0);
  });
});
