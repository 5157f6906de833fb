import request from 'supertest';
import { createApiKey, revokeApiKey } from '@yieldrouter/ledger';
import { parseEnv } from './env';
import type { TestApp } from './testing/startTestApp';
import { TEST_WALLET, startTestApp } from './testing/startTestApp';

// A key lookup is cached per process for SVC_API_KEY_CACHE_MS: a revoked key (`pnpm keys
// revoke`, straight in the database) stops working within that bound, on every process.

const POSITION = `/api/v1/wallets/${TEST_WALLET}/position`;
const CACHE_MS = 400;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a revoked API key', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ SVC_API_KEY_CACHE_MS: String(CACHE_MS) });
  });
  afterAll(async () => {
    await t.close();
  });

  it('is refused 401 once the cache bound has passed since it was revoked', async () => {
    const created = await createApiKey(
      t.db,
      { role: 'owner', wallets: [TEST_WALLET] },
      t.config.apiKeySecret,
    );
    await request(t.app).get(POSITION).set('X-API-Key', created.key).expect(200);
    expect(await revokeApiKey(t.db, created.id)).toBe(true);
    const revokedAt = Date.now();
    // Within the bound the cached lookup may still serve it; past it, never.
    await sleep(CACHE_MS + 50);
    const res = await request(t.app).get(POSITION).set('X-API-Key', created.key);
    expect(Date.now() - revokedAt).toBeGreaterThan(CACHE_MS);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('INVALID_API_KEY');
  });

  it('with a cache of 0, is refused on the very next request', async () => {
    const uncached = await startTestApp({ SVC_API_KEY_CACHE_MS: '0' });
    try {
      const created = await createApiKey(
        uncached.db,
        { role: 'owner', wallets: [TEST_WALLET] },
        uncached.config.apiKeySecret,
      );
      await request(uncached.app).get(POSITION).set('X-API-Key', created.key).expect(200);
      await revokeApiKey(uncached.db, created.id);
      await request(uncached.app).get(POSITION).set('X-API-Key', created.key).expect(401);
    } finally {
      await uncached.close();
    }
  });

  it('the bound is 30 s unless set, and at most 5 minutes', () => {
    expect(parseEnv({}).apiKeyCacheMs).toBe(30_000);
    expect(() => parseEnv({ SVC_API_KEY_CACHE_MS: '300001' })).toThrow(/SVC_API_KEY_CACHE_MS/);
  });
});
