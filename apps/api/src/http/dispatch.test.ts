import { randomBytes } from 'node:crypto';
import type { Express } from 'express';
import request from 'supertest';
import type { Response } from 'supertest';
import { createApp } from '../app';
import { createLogger } from '../logger';
import type { TestApp } from '../testing/startTestApp';
import { OTHER_WALLET, TEST_WALLET, startTestApp, testKeys } from '../testing/startTestApp';

// The fast path (RouteTable) must behave exactly like the Express routes it shortcuts.
let t: TestApp;
/** The same app with the fast dispatcher taken out: every request walks Express's layers. */
let expressOnly: Express;
const expressOnlyPrefix = `svc:test:dispatch:${randomBytes(6).toString('hex')}:`;

beforeAll(async () => {
  t = await startTestApp();
  expressOnly = createApp({
    config: t.config,
    db: t.db,
    redis: t.redis,
    logger: createLogger('silent'),
    rateLimitPrefix: expressOnlyPrefix,
  });
  const stack = expressOnly.router.stack;
  const index = stack.findIndex((layer) => layer.name === 'fastRouteDispatch');
  expect(index).toBeGreaterThanOrEqual(0);
  stack.splice(index, 1);
});
afterAll(async () => {
  const keys = await t.redis.keys(`${expressOnlyPrefix}*`);
  if (keys.length > 0) await t.redis.del(...keys);
  await t.close();
});

type Method = 'get' | 'head' | 'post' | 'put' | 'delete' | 'patch' | 'options';

interface Probe {
  readonly method: Method;
  readonly path: string;
  readonly key?: string;
  readonly body?: unknown;
}

// Per-request values: the clock and the rate limiter's counters (each app has its own).
const VOLATILE = new Set(['date', 'ratelimit-remaining', 'ratelimit-reset']);
const withoutClock = (text: string | undefined) => text?.replace(/"asOf":"[^"]+"/g, '"asOf":"…"');

function send(app: Express, { method, path, key, body }: Probe): Promise<Response> {
  let test = request(app)[method](path).set('X-Request-Id', 'req_dispatch_probe');
  if (key) test = test.set('X-API-Key', key);
  if (body !== undefined) test = test.send(body as object);
  return test;
}

/** Sends `probe` through the fast path and through Express alone; the answers must match. */
async function sameAnswer(probe: Probe): Promise<Response> {
  const fast = await send(t.app, probe);
  const slow = await send(expressOnly, probe);
  const headers = (res: Response) =>
    Object.fromEntries(Object.entries(res.headers).filter(([name]) => !VOLATILE.has(name)));
  expect({ status: fast.status, headers: headers(fast), text: withoutClock(fast.text) }).toEqual({
    status: slow.status,
    headers: headers(slow),
    text: withoutClock(slow.text),
  });
  return fast;
}

const position = (wallet: string, prefix = '/api/v1') => `${prefix}/wallets/${wallet}/position`;

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

describe('parameterised routes: fast path and Express alone answer alike', () => {
  it('a wallet position, canonical and legacy alias, with the rate-limit headers', async () => {
    const res = await sameAnswer({
      method: 'get',
      path: position(TEST_WALLET),
      key: testKeys.owner,
    });
    expect(res.status).toBe(200);
    expect(res.body.wallet).toBe(TEST_WALLET);
    expect(res.headers['ratelimit-limit']).toBeDefined();
    expect(res.headers['x-request-id']).toBe('req_dispatch_probe');
    const alias = await sameAnswer({
      method: 'get',
      path: position(TEST_WALLET, '/api'),
      key: testKeys.owner,
    });
    expect(withoutClock(alias.text)).toBe(withoutClock(res.text));
  });

  it('HEAD, a trailing slash and other letter case reach the same route', async () => {
    const get = await sameAnswer({
      method: 'get',
      path: position(TEST_WALLET),
      key: testKeys.agent,
    });
    const head = await sameAnswer({
      method: 'head',
      path: position(TEST_WALLET),
      key: testKeys.agent,
    });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    const slash = await sameAnswer({
      method: 'get',
      path: `${position(TEST_WALLET)}/`,
      key: testKeys.agent,
    });
    expect(withoutClock(slash.text)).toBe(withoutClock(get.text));
    const upper = await sameAnswer({
      method: 'get',
      path: `/API/V1/WALLETS/${TEST_WALLET}/POSITION`,
      key: testKeys.agent,
    });
    expect(withoutClock(upper.text)).toBe(withoutClock(get.text));
  });

  it('a percent-encoded parameter is decoded as Express decodes it', async () => {
    // %30 is "0": the same wallet, spelt with an escape.
    const encoded = `%30${TEST_WALLET.slice(1)}`;
    const res = await sameAnswer({ method: 'get', path: position(encoded), key: testKeys.owner });
    expect(res.status).toBe(200);
    expect(res.body.wallet).toBe(TEST_WALLET);
    const form = await sameAnswer({ method: 'get', path: '/api/v1/svc/forms/m%C3%B6rpho%2Fx' });
    expect(form.status).toBe(404);
  });

  it('a malformed escape is a 400 naming the path, never a 500', async () => {
    const res = await sameAnswer({ method: 'get', path: position('0x%ZZ'), key: testKeys.owner });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', field: 'path' });
    await sameAnswer({ method: 'get', path: '/api/v1/svc/plans/plan_%E0%A4%A' });
    await sameAnswer({ method: 'delete', path: position('%'), key: testKeys.owner });
  });

  it('auth and wallet scope are enforced on the fast path', async () => {
    const outside = await sameAnswer({
      method: 'get',
      path: position(OTHER_WALLET),
      key: testKeys.owner,
    });
    expect(outside.status).toBe(403);
    expect(outside.body).toMatchObject({ code: 'WALLET_SCOPE', field: 'path.address' });
    const missing = await sameAnswer({ method: 'get', path: position(TEST_WALLET) });
    expect(missing.body.code).toBe('UNAUTHORIZED');
    const unknown = await sameAnswer({ method: 'get', path: position(TEST_WALLET), key: 'nope' });
    expect(unknown.body.code).toBe('INVALID_API_KEY');
    const keeper = await sameAnswer({
      method: 'get',
      path: position(TEST_WALLET),
      key: testKeys.keeper,
    });
    expect(keeper.status).toBe(403);
  });

  it('another method on a parameterised path is 405 with Allow', async () => {
    for (const method of ['delete', 'post', 'patch'] as const) {
      const res = await sameAnswer({ method, path: position(TEST_WALLET), key: testKeys.owner });
      expect(res.status).toBe(405);
      expect(res.headers['allow']).toBe('GET, HEAD');
    }
    // OPTIONS answers what the path allows (RFC 9110), on both paths alike.
    const options = await sameAnswer({ method: 'options', path: position(TEST_WALLET) });
    expect([options.status, options.headers['allow']]).toEqual([204, 'GET, HEAD, OPTIONS']);
    const put = await sameAnswer({ method: 'put', path: '/api/v1/svc/plans/plan_x' });
    expect(put.headers['allow']).toBe('GET, HEAD');
  });

  it('a static path keeps its precedence over a parameterised sibling', async () => {
    const priority = await sameAnswer({ method: 'get', path: '/api/v1/svc/strategies/priority' });
    expect(priority.status).toBe(200);
    // Express matches letter case loosely: this is the static route too, not {id}=PRIORITY.
    const upper = await sameAnswer({ method: 'get', path: '/api/v1/svc/strategies/PRIORITY' });
    expect(upper.text).toBe(priority.text);
    await sameAnswer({ method: 'get', path: '/api/v1/svc/strategies/unknown-strategy' });
    await sameAnswer({ method: 'get', path: '/api/svc/forms/priority' });
  });

  it('bodies, two parameters and unknown paths', async () => {
    await sameAnswer({
      method: 'post',
      path: `/api/v1/wallets/${TEST_WALLET}/preview`,
      key: testKeys.owner,
      body: { amountMicros: '1000000', token: 'USDC', chain: 'base' },
    });
    await sameAnswer({
      method: 'post',
      path: '/api/v1/svc/plans/plan_missing/legs/0/settle',
      key: testKeys.keeper,
      body: { txId: '0xabc' },
    });
    await sameAnswer({
      method: 'post',
      path: '/api/v1/svc/plans/plan_missing/legs/x/settle',
      key: testKeys.keeper,
      body: { txId: '0xabc' },
    });
    await sameAnswer({ method: 'get', path: `/api/v1/wallets/${TEST_WALLET}/nothing` });
    await sameAnswer({ method: 'get', path: '/api/v1/wallets//position', key: testKeys.owner });
  });
});
