import request from 'supertest';
import type { Test } from 'supertest';
import { createApiKey, revokeApiKey } from '@yieldrouter/ledger';
import type { RouteDefinition } from '@yieldrouter/schemas';
import { routeList, routePaths } from '@yieldrouter/schemas';
import type { TestApp } from './testing/startTestApp';
import { OTHER_WALLET, startTestApp, testKeys, TEST_WALLET } from './testing/startTestApp';
import { forbiddenRoles, samplePath } from './testing/routeRequests';
import { createApiStore } from '@yieldrouter/engine';
import { KeyResolver } from './http/auth';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    SVC_RATE_LIMIT_KEYED: '100000',
    SVC_RATE_LIMIT_PUBLIC: '100000',
    // The matrix sends an unknown key to every route: no back-off here (edges.security tests it).
    SVC_AUTH_FREE_FAILURES: '10000',
  });
});
afterAll(async () => {
  await t.close();
});

const call = (route: RouteDefinition, path: string): Test => {
  const agent = request(t.app);
  switch (route.method) {
    case 'get':
      return agent.get(path);
    case 'post':
      return agent.post(path).send({});
    case 'put':
      return agent.put(path).send({});
    case 'delete':
      return agent.delete(path);
  }
};

const keyed = routeList.filter((route) => route.auth !== 'public');
const label = (route: RouteDefinition) => `${route.method.toUpperCase()} ${route.path}`;

describe('auth matrix (generated from the manifest)', () => {
  it.each(keyed.map((route) => [label(route), route] as const))(
    '%s: no key 401, unknown key 401, wrong role 403, right role passes auth',
    async (_label, route) => {
      const path = samplePath(routePaths(route).canonical);
      const missing = await call(route, path);
      expect([missing.status, missing.body.code]).toEqual([401, 'UNAUTHORIZED']);
      const unknown = await call(route, path).set('X-API-Key', 'not-a-real-key-000000');
      expect([unknown.status, unknown.body.code]).toEqual([401, 'INVALID_API_KEY']);
      for (const role of forbiddenRoles(route)) {
        const wrong = await call(route, path)
          .set('X-API-Key', testKeys[role])
          .set('X-Role', 'owner');
        // SPEC's role table: the wrong role is 403 UNAUTHORIZED on every route, bridge rescue
        // included (issue 41).
        expect([wrong.status, wrong.body.code]).toEqual([403, 'UNAUTHORIZED']);
      }
      for (const role of route.auth as readonly ('owner' | 'agent' | 'keeper')[]) {
        const allowed = await call(route, path).set('X-API-Key', testKeys[role]);
        expect([401, 403]).not.toContain(allowed.status);
      }
    },
  );

  it('public routes ignore keys entirely (even unknown ones)', async () => {
    await request(t.app).get('/api/v1/svc/status').set('X-API-Key', 'garbage').expect(200);
  });
});

describe('wallet scope', () => {
  it('a key outside its wallets gets 403 WALLET_SCOPE naming the wallet', async () => {
    for (const key of [testKeys.agent, testKeys.owner]) {
      const res = await request(t.app)
        .get(`/api/v1/wallets/${OTHER_WALLET}/position`)
        .set('X-API-Key', key)
        .expect(403);
      expect(res.body.code).toBe('WALLET_SCOPE');
      expect(res.body.message).toContain(OTHER_WALLET);
    }
  });

  it('a key inside its wallets passes scope', async () => {
    const res = await request(t.app)
      .get(`/api/v1/wallets/${TEST_WALLET}/position`)
      .set('X-API-Key', testKeys.agent);
    expect([401, 403]).not.toContain(res.status);
  });
});

describe('database keys', () => {
  const secret = 'test-secret-test-secret-test-secret-0001';
  it('a key created in the database authenticates through the app', async () => {
    const created = await createApiKey(t.db, { role: 'keeper', wallets: [] }, secret);
    await request(t.app)
      .get('/api/v1/svc/keeper/survival')
      .set('X-API-Key', created.key)
      .expect(200);
  });

  it('a revoked key stops resolving once the cache entry expires', async () => {
    const created = await createApiKey(t.db, { role: 'agent', wallets: [TEST_WALLET] }, secret);
    const resolver = new KeyResolver({
      store: createApiStore(t.db),
      secret,
      staticKeys: [],
      cacheTtlMs: 0,
    });
    expect((await resolver.resolve(created.key))?.role).toBe('agent');
    expect(await revokeApiKey(t.db, created.id)).toBe(true);
    expect(await resolver.resolve(created.key)).toBeNull();
  });
});

describe('every manifest route is reachable at /api/v1 and its legacy alias', () => {
  const roleFor = (route: RouteDefinition) =>
    route.auth === 'public' ? undefined : (route.auth[0] as 'owner' | 'agent' | 'keeper');
  it.each(routeList.map((route) => [label(route), route] as const))('%s', async (_l, route) => {
    const { canonical, aliases } = routePaths(route);
    for (const path of [canonical, ...aliases]) {
      const role = roleFor(route);
      let pending = call(route, samplePath(path));
      if (role) pending = pending.set('X-API-Key', testKeys[role]);
      const res = await pending;
      expect(res.status).not.toBe(405);
      expect(res.body?.code).not.toBe('NOT_FOUND');
    }
  });
});
