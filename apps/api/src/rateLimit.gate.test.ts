import request from 'supertest';
import type { Books } from '@yieldrouter/ledger';
import { createApiKey, createDatabase } from '@yieldrouter/ledger';
import { createApp } from './app';
import { createLogger } from './logger';
import type { TestApp } from './testing/startTestApp';
import { TEST_WALLET, startTestApp } from './testing/startTestApp';

// A flood past the limit is refused before anything that costs: these tests count every use of
// the app's database handle while the flood is answered, and run two API instances on one Redis.

const WINDOW_SECONDS = 2;
const WINDOW_MS = WINDOW_SECONDS * 1000;
const POSITION = `/api/v1/wallets/${TEST_WALLET}/position`;
const STATUS = '/api/v1/svc/status';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits for the start of the next rate-limit window (fixed windows of WINDOW_MS). */
const nextWindow = () => sleep(WINDOW_MS - (Date.now() % WINDOW_MS) + 20);
/** Retry-After a refusal answered at `at` must carry: whole seconds to its window's end. */
const retryAfterAt = (at: number) =>
  Math.max(1, Math.ceil(((Math.floor(at / WINDOW_MS) + 1) * WINDOW_MS - at) / 1000));

/** The books behind a proxy that records every member the app reaches for. */
function counted(books: Books): { books: Books; touches: string[] } {
  const touches: string[] = [];
  const proxy = new Proxy(books, {
    get(target, property) {
      touches.push(String(property));
      return Reflect.get(target, property, target) as unknown;
    },
  });
  return { books: proxy, touches };
}

async function expectRefused(res: request.Response, sentAt: number, limit: number) {
  const answeredAt = Date.now();
  expect(res.status).toBe(429);
  expect(res.body).toMatchObject({
    code: 'RATE_LIMITED',
    message: `rate limit of ${limit} requests exceeded`,
  });
  expect(res.body.requestId).toBe(res.headers['x-request-id']);
  const retry = Number(res.headers['retry-after']);
  expect([retryAfterAt(sentAt), retryAfterAt(answeredAt)]).toContain(retry);
  expect(res.headers['ratelimit-limit']).toBe(String(limit));
  expect(res.headers['ratelimit-remaining']).toBe('0');
  expect(res.headers['ratelimit-reset']).toBe(String(retry));
}

describe('a flood past a key limit', () => {
  let t: TestApp;
  let touches: string[] = [];
  let key = '';
  beforeAll(async () => {
    t = await startTestApp(
      {
        SVC_RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
        SVC_RATE_LIMIT_KEYED: '3',
        // Every authentication looks the key up: only the gate keeps a flood off the database.
        SVC_API_KEY_CACHE_MS: '0',
      },
      {
        openDatabase: async (url) => {
          const wrapped = counted(await createDatabase({ databaseUrl: url, migrate: false }));
          touches = wrapped.touches;
          return wrapped.books;
        },
      },
    );
    key = (
      await createApiKey(t.db, { role: 'owner', wallets: [TEST_WALLET] }, t.config.apiKeySecret)
    ).key;
  });
  afterAll(async () => {
    await t.close();
  });

  it('gets 429s with Retry-After to the window end, no database use, then is served', async () => {
    await nextWindow();
    touches.length = 0;
    for (let i = 0; i < 3; i += 1) {
      await request(t.app).get(POSITION).set('X-API-Key', key).expect(200);
    }
    // Served reads use the database (the count below is not blind).
    expect(touches.length).toBeGreaterThan(0);
    touches.length = 0;
    for (let i = 0; i < 25; i += 1) {
      const sentAt = Date.now();
      const res = await request(t.app)
        .get(POSITION)
        .set('X-API-Key', key)
        .set('Content-Type', 'application/json')
        .send('{"ignored": true}');
      await expectRefused(res, sentAt, 3);
      expect(res.headers['cache-control']).toBe('no-store');
    }
    expect(touches).toEqual([]);
    // Another key, and an anonymous caller of a public route, are not refused.
    await request(t.app).get(STATUS).expect(200);
    await nextWindow();
    await request(t.app).get(POSITION).set('X-API-Key', key).expect(200);
  });
});

describe('two API instances on one Redis', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      SVC_RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
      SVC_RATE_LIMIT_PUBLIC: '4',
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('share one budget: the second refuses what the first used, then serves', async () => {
    const second = createApp({
      config: t.config,
      db: t.db,
      redis: t.redis,
      logger: createLogger('silent'),
      rateLimitPrefix: t.rateLimitPrefix,
    });
    await nextWindow();
    for (let i = 0; i < 4; i += 1) await request(t.app).get(STATUS).expect(200);
    // The second learns from the shared counter (Express answers), then refuses in front of it.
    let sentAt = Date.now();
    const first = await request(second).get(STATUS);
    await expectRefused(first, sentAt, 4);
    sentAt = Date.now();
    const gated = await request(second).get(STATUS);
    await expectRefused(gated, sentAt, 4);
    // The same headers either way (security, version, rate-limit), bar the per-answer ones.
    const names = (res: request.Response) =>
      Object.keys(res.headers)
        .filter((name) => !['date', 'connection', 'keep-alive'].includes(name))
        .sort();
    expect(names(gated)).toEqual(names(first));
    expect(gated.headers['x-content-type-options']).toBe('nosniff');
    await request(t.app).get(STATUS).expect(429);
    await nextWindow();
    await request(second).get(STATUS).expect(200);
    await request(t.app).get(STATUS).expect(200);
  });
});

describe('behind a trusted proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      SVC_RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
      SVC_RATE_LIMIT_PUBLIC: '2',
      SVC_TRUST_PROXY: 'true',
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses per forwarded address, as Express counts it', async () => {
    await nextWindow();
    const from = (address: string) => request(t.app).get(STATUS).set('X-Forwarded-For', address);
    await from('203.0.113.7').expect(200);
    await from('203.0.113.7').expect(200);
    for (let i = 0; i < 5; i += 1) {
      const sentAt = Date.now();
      await expectRefused(await from('203.0.113.7'), sentAt, 2);
    }
    await from('198.51.100.9').expect(200);
  });
});
