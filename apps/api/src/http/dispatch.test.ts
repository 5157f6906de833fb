import request from 'supertest';
import type { TestApp } from '../testing/startTestApp';
import { startTestApp } from '../testing/startTestApp';

// The exact-path fast path must behave exactly like the Express routes it shortcuts.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('route dispatch', () => {
  it('serves the same bytes through the fast path and the Express fallback', async () => {
    const fast = await request(t.app).get('/api/v1/svc/status').expect(200);
    const slash = await request(t.app).get('/api/v1/svc/status/').expect(200);
    const upper = await request(t.app).get('/API/V1/SVC/STATUS').expect(200);
    expect(slash.text).toBe(fast.text);
    expect(upper.text).toBe(fast.text);
    expect(fast.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(fast.headers['content-length'])).toBe(Buffer.byteLength(fast.text));
  });

  it('answers HEAD like GET, without a body', async () => {
    const res = await request(t.app).head('/api/v1/svc/fees').expect(200);
    expect(res.text).toBeUndefined();
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('still answers 405 with Allow for another method on a static path', async () => {
    const res = await request(t.app).delete('/api/v1/svc/status').expect(405);
    expect(res.headers['allow']).toBe('GET, HEAD');
    expect(res.body.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('still authenticates and rate-limits on the fast path', async () => {
    const res = await request(t.app).get('/api/v1/svc/webhooks').expect(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
    expect(res.headers['ratelimit-limit']).toBeUndefined();
  });

  it('a frozen document is served identically on every request', async () => {
    const first = await request(t.app).get('/api/v1/svc/packages').expect(200);
    const second = await request(t.app).get('/api/v1/svc/packages').expect(200);
    expect(second.text).toBe(first.text);
    expect(JSON.parse(first.text).schemaVersion).toBe('svc-packages.v1');
  });
});
