import { CONSOLE_CSP } from '@yieldrouter/console';
import request from 'supertest';
import { getAddress } from 'viem';
import { createApiKey } from '@yieldrouter/ledger';
import type { TestApp } from './testing/startTestApp';
import { SAMPLE_ADDRESSES, startTestApp, testKeys, TEST_WALLET } from './testing/startTestApp';

// Issue 16, findings 5–8 and 10: prototype ids, failed authentication, wallet scope by canonical
// address, security headers and CORS, webhook target ports.

const ORIGIN = 'https://dashboard.example.com';
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    SVC_RATE_LIMIT_PUBLIC: '100000',
    SVC_RATE_LIMIT_KEYED: '100000',
    SVC_AUTH_FREE_FAILURES: '5',
    SVC_AUTH_BACKOFF_MAX_SECONDS: '60',
    SVC_CORS_ORIGINS: ORIGIN,
    SVC_WEBHOOK_ALLOWED_PORTS: '8443',
    // Each test guesses from its own address (X-Forwarded-For).
    SVC_TRUST_PROXY: 'true',
  });
});
afterAll(async () => {
  await t.close();
});

const api = (path: string) => `/api/v1${path}`;

describe('ids are looked up as own entries only', () => {
  it.each(['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'])(
    '/characters/%s/svc/position is CHARACTER_SCOPE, not a prototype member',
    async (id) => {
      for (const key of [testKeys.owner, testKeys.agent]) {
        const res = await request(t.app)
          .get(api(`/characters/${id}/svc/position`))
          .set('X-API-Key', key);
        expect([res.status, res.body.code, res.body.field]).toEqual([
          403,
          'CHARACTER_SCOPE',
          'path.character_id',
        ]);
        expect(res.body.message).not.toMatch(/function|Object\(/);
      }
    },
  );
});

describe('failed authentication is rate-limited, with back-off', () => {
  it('after the free failures an address waits (429, Retry-After) whatever key it guesses', async () => {
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (let guess = 0; guess < 40; guess += 1) {
      const res = await request(t.app)
        .get(api('/svc/webhooks'))
        .set('X-Forwarded-For', '203.0.113.7')
        .set('X-API-Key', `svc_owner_guess${guess.toString().padStart(40, '0')}`);
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers['retry-after'];
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(30);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    // A key that resolves is still served (it is not guessing).
    await request(t.app).get(api('/svc/webhooks')).set('X-API-Key', testKeys.owner).expect(200);
  });

  it('a key prefix that keeps failing waits, from whatever address', async () => {
    const statuses: number[] = [];
    for (let guess = 0; guess < 12; guess += 1) {
      const res = await request(t.app)
        .get(api('/svc/webhooks'))
        .set('X-Forwarded-For', `198.51.100.${guess + 1}`)
        .set('X-API-Key', `svc_owner_Zz${guess}-${'x'.repeat(30)}`);
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(6)).toEqual([429, 429, 429, 429, 429, 429]);
  });
});

describe('wallet scope compares canonical addresses', () => {
  it('an EVM key in lower case is the checksummed wallet, and the reverse', async () => {
    const lower = SAMPLE_ADDRESSES.base.toLowerCase();
    const checksummed = getAddress(lower);
    for (const [scoped, asked] of [
      [lower, checksummed],
      [checksummed, lower],
    ] as const) {
      const created = await createApiKey(
        t.db,
        { role: 'owner', wallets: [scoped] },
        t.config.apiKeySecret,
      );
      const res = await request(t.app)
        .get(api(`/wallets/${asked}/position`))
        .set('X-API-Key', created.key);
      expect(res.status).toBe(200);
    }
  });

  it('a Sui key matches the address in upper case or without leading zeros', async () => {
    const sui = `0x${'0'.repeat(60)}abcd`;
    const created = await createApiKey(
      t.db,
      { role: 'owner', wallets: [sui] },
      t.config.apiKeySecret,
    );
    for (const asked of [sui.toUpperCase().replace('0X', '0x'), '0xabcd', '0xABCD']) {
      const res = await request(t.app)
        .get(api(`/wallets/${asked}/position`))
        .set('X-API-Key', created.key);
      expect([asked, res.status]).toEqual([asked, 200]);
    }
    const other = await request(t.app)
      .get(api('/wallets/0xabce/position'))
      .set('X-API-Key', created.key);
    expect([other.status, other.body.code]).toEqual([403, 'WALLET_SCOPE']);
  });
});

describe('headers and CORS', () => {
  it('every answer says nosniff, no-referrer and no framing; keyed answers are no-store', async () => {
    const open = await request(t.app).get(api('/svc/status')).expect(200);
    expect(open.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'SAMEORIGIN',
    });
    const keyed = await request(t.app)
      .get(api(`/wallets/${TEST_WALLET}/position`))
      .set('X-API-Key', testKeys.owner)
      .expect(200);
    expect(keyed.headers['cache-control']).toBe('no-store');
    const refused = await request(t.app).get(api('/svc/webhooks')).expect(401);
    expect(refused.headers['cache-control']).toBe('no-store');
  });

  it('/docs has a CSP that loads only its own scripts', async () => {
    const docs = await request(t.app).get('/docs').expect(200);
    expect(docs.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(docs.headers['content-security-policy']).toMatch(/frame-ancestors 'self'/);
  });

  it("/console has its own CSP (no inline script or style); the API keeps helmet's", async () => {
    const page = await request(t.app).get('/console/').expect(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.headers['content-security-policy']).toBe(CONSOLE_CSP);
    expect(page.text).not.toMatch(/<script>|<style|style=/);
    const chart = await request(t.app).get('/console/vendor/uPlot.esm.js').expect(200);
    expect(chart.headers['content-security-policy']).toBe(CONSOLE_CSP);
    expect((await request(t.app).get('/console').expect(301)).headers['location']).toBe(
      '/console/',
    );
    const docs = await request(t.app).get('/docs').expect(200);
    const status = await request(t.app).get(api('/svc/status')).expect(200);
    for (const other of [docs, status]) {
      expect(other.headers['content-security-policy']).toBe(
        "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';" +
          "frame-ancestors 'self';img-src 'self' data:;object-src 'none';script-src 'self';" +
          "script-src-attr 'none';style-src 'self' https: 'unsafe-inline';upgrade-insecure-requests",
      );
    }
  });

  it('OPTIONS answers the methods; a preflight of an allowed origin gets CORS, others none', async () => {
    const plain = await request(t.app).options(api('/svc/status')).expect(204);
    expect(plain.headers['allow']).toBe('GET, HEAD, OPTIONS');
    const preflight = (origin: string) =>
      request(t.app)
        .options(api('/svc/webhooks'))
        .set('Origin', origin)
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'x-api-key, content-type');
    const allowed = await preflight(ORIGIN).expect(204);
    expect(allowed.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(allowed.headers['access-control-allow-headers']).toMatch(/X-API-Key/);
    const other = await preflight('https://evil.example').expect(204);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const simple = await request(t.app).get(api('/svc/status')).set('Origin', ORIGIN).expect(200);
    expect(simple.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(simple.headers['access-control-expose-headers']).toMatch(/X-Request-Id/);
  });
});

describe('webhook targets use web ports', () => {
  const create = (url: string) =>
    request(t.app)
      .post(api('/svc/webhooks'))
      .set('X-API-Key', testKeys.owner)
      .send({ url, eventTypes: ['deposit.settled'] });

  it.each(['https://1.1.1.1:22/h', 'https://hooks.example.com:6379/h', 'http://1.1.1.1:8080/h'])(
    '%s is refused',
    async (url) => {
      const res = await create(url);
      expect([res.status, res.body.field]).toEqual([400, 'body.url']);
      expect(res.body.message).toMatch(/port/);
    },
  );

  it.each(['https://1.1.1.1/h', 'https://1.1.1.1:443/h', 'https://1.1.1.1:8443/h'])(
    '%s is accepted (443, or a port of SVC_WEBHOOK_ALLOWED_PORTS)',
    async (url) => {
      await create(url).expect(201);
    },
  );
});
