import request from 'supertest';
import {
  EnablementDocument,
  ErrorCode,
  ErrorsDocument,
  FeesDocument,
  HealthDocument,
  PackagesDocument,
  RoutesDocument,
  StatusDocument,
  VersionDocument,
  routeList,
} from '@yieldrouter/schemas';
import type { TestApp } from './testing/startTestApp';
import { startTestApp } from './testing/startTestApp';

// Every manifest route has its handler by now: the catalog's planned-route case is shown with
// one mounted without it (as a route that has not landed is).
const WITHHELD = 'rescueBridge';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, { withheldHandlers: [WITHHELD] });
});
afterAll(async () => {
  await t.close();
});

describe('meta endpoints', () => {
  it('GET /health is unversioned and reports its checks', async () => {
    const res = await request(t.app).get('/health').expect(200);
    const body = HealthDocument.parse(res.body);
    expect(body.checks).toEqual({ database: 'up', redis: 'up' });
    expect(res.headers['api-version']).toBe('1.0.0');
    expect(res.headers['x-request-id']).toMatch(/^req_/);
  });

  it('GET / links the docs and the OpenAPI document', async () => {
    const res = await request(t.app).get('/').expect(200);
    expect(res.body.links.openapi).toBe('/api/v1/openapi.json');
  });

  it('status and readiness carry phase, homes, fees and flags (all off by default)', async () => {
    for (const path of ['/api/v1/svc/status', '/api/v1/svc/readiness', '/api/svc/status']) {
      const res = await request(t.app).get(path).expect(200);
      const body = StatusDocument.parse(res.body);
      expect(body.phase).toBe('phase-1');
      expect(body.launchHomes).toEqual({
        executable: ['sui', 'solana'],
        map: ['base', 'arbitrum'],
      });
      expect(body.protocolYieldSkimBps).toBe(500);
      expect(body.principalFeeBps).toBe(0);
      expect(body.executionEnabled).toBe(false);
      expect(body.broadcastEnabled).toBe(false);
      expect(body.executionMode).toBe('disabled');
    }
  });

  it('fees come from packages/fees: principal 0, skim 500, max 1000, profit fee off', async () => {
    const res = await request(t.app).get('/api/v1/svc/fees').expect(200);
    const body = FeesDocument.parse(res.body);
    expect(body).toMatchObject({
      principalFeeBps: 0,
      depositFeeBps: 0,
      withdrawFeeBps: 0,
      yieldSkimBps: 500,
      registryMaxYieldSkimBps: 1000,
      harvestProfitFee: { bps: 100, capMicros: '10000000', enabled: false },
      slippage: { defaultBps: 100, maxBps: 500 },
      // No treasury configured in this app: null per chain, never invented.
      treasuries: { sui: null, solana: null, base: null, arbitrum: null },
    });
  });

  it('packages: Executable vs Map, ids null with a reason when not configured', async () => {
    const res = await request(t.app).get('/api/v1/svc/packages').expect(200);
    const body = PackagesDocument.parse(res.body);
    const byChain = Object.fromEntries(body.chains.map((chain) => [chain.chain, chain]));
    expect(byChain['sui']?.label).toBe('Executable');
    expect(byChain['solana']?.label).toBe('Executable');
    expect(byChain['base']).toMatchObject({
      label: 'Map',
      chainId: 8453,
      writeReady: false,
      liveMoneyPath: false,
      broadcastEnabled: false,
      status: 'target',
      expansion: { goNoGo: 'NO_GO_EXPANSION', targetGoNoGo: 'GO', executionEnabled: false },
      registryFeeConfig: { yieldSkimBps: 500, depositFeeBps: 0, maxYieldSkimBps: 1000 },
    });
    expect(byChain['arbitrum']).toMatchObject({ label: 'Map', chainId: 42161 });
    for (const chain of body.chains) {
      for (const object of chain.objects) {
        expect(object.id).toBeNull();
        expect(object.reason).toBeTruthy();
      }
    }
  });

  it('packages: configured ids are served as given and make the chain live', async () => {
    const configured = await startTestApp({
      SVC_BASE_REGISTRY_ADDRESS: '0x00000000000000000000000000000000000000aa',
      SVC_SOLANA_PROGRAM_ID: 'So11111111111111111111111111111111111111112',
    });
    try {
      const res = await request(configured.app).get('/api/v1/svc/packages').expect(200);
      const body = PackagesDocument.parse(res.body);
      const base = body.chains.find((chain) => chain.chain === 'base');
      expect(base?.status).toBe('live');
      expect(base?.writeReady).toBe(false);
      expect(base?.objects[0]).toEqual({
        kind: 'registry',
        id: '0x00000000000000000000000000000000000000aa',
      });
      const solana = body.chains.find((chain) => chain.chain === 'solana');
      expect(solana?.objects[0]?.id).toBe('So11111111111111111111111111111111111111112');
    } finally {
      await configured.close();
    }
  });

  it('enablement per chain; Map chains never broadcast', async () => {
    const res = await request(t.app).get('/api/v1/svc/enablement').expect(200);
    const body = EnablementDocument.parse(res.body);
    expect(body.chains.map((chain) => chain.chain)).toEqual(['sui', 'solana', 'base', 'arbitrum']);
    for (const chain of ['base', 'arbitrum']) {
      const one = await request(t.app).get(`/api/v1/svc/${chain}/enablement`).expect(200);
      expect(one.body).toMatchObject({
        chain,
        writeReady: false,
        liveMoneyPath: false,
        broadcastEnabled: false,
      });
    }
  });

  it('execution switches show in status when turned on for an Executable chain', async () => {
    const on = await startTestApp({ SVC_SOLANA_EXECUTION_ENABLED: 'true' });
    try {
      const res = await request(on.app).get('/api/v1/svc/status').expect(200);
      expect(res.body.executionEnabled).toBe(true);
      expect(res.body.broadcastEnabled).toBe(false);
      expect(res.body.executionMode).toBe('owner_sign_prepare');
    } finally {
      await on.close();
    }
  });

  it('errors catalog lists every code with its status, and the blockers', async () => {
    const res = await request(t.app).get('/api/v1/svc/errors').expect(200);
    const body = ErrorsDocument.parse(res.body);
    expect(body.errors.map((entry) => entry.code).sort()).toEqual([...ErrorCode.options].sort());
    expect(body.errors.find((entry) => entry.code === 'WALLET_SCOPE')?.status).toBe(403);
    expect(body.errors.find((entry) => entry.code === 'NOT_IMPLEMENTED')?.status).toBe(501);
    expect(body.blockers.map((entry) => entry.code)).toContain('router_not_configured');
  });

  it('routes catalog lists every manifest route and marks what is implemented', async () => {
    const res = await request(t.app).get('/api/v1/svc/routes').expect(200);
    const body = RoutesDocument.parse(res.body);
    expect(body.count).toBe(routeList.length);
    const status = body.routes.find((route) => route.operationId === 'getStatus');
    expect(status).toMatchObject({
      implemented: true,
      path: '/api/v1/svc/status',
      legacyAliases: ['/api/svc/status'],
    });
    const route = body.routes.find((entry) => entry.operationId === WITHHELD);
    expect(route).toMatchObject({ implemented: false, auth: ['owner'] });
    expect(body.implementedCount).toBeLessThan(body.count);
    const solanaSwap = body.routes.find((entry) => entry.operationId === 'prepareSolanaSwapPlan');
    expect(solanaSwap).toMatchObject({ implemented: true, auth: ['public'] });
    // Whichever manifest routes still have no handler are listed as such and counted out; once
    // every route is implemented the counts agree.
    const missing = body.routes.filter((entry) => !entry.implemented);
    expect(body.implementedCount).toBe(body.count - missing.length);
    for (const route of missing) {
      expect(routeList.map((entry) => entry.operationId)).toContain(route.operationId);
    }
  });

  it('version and sdk documents', async () => {
    const version = await request(t.app).get('/api/v1/svc/version').expect(200);
    expect(VersionDocument.parse(version.body).routeCount).toBe(routeList.length);
    const sdk = await request(t.app).get('/api/v1/svc/sdk').expect(200);
    expect(sdk.body.packageName).toBe('@yieldrouter/sdk');
  });

  it('serves the docs page and its assets locally', async () => {
    const page = await request(t.app).get('/docs').expect(200);
    expect(page.text).toContain('/api/v1/openapi.json');
    expect(page.text).toContain('swagger-ui-bundle.js');
    const asset = await request(t.app).get('/docs/assets/swagger-ui-bundle.js').expect(200);
    expect(asset.text.length).toBeGreaterThan(100_000);
  });
});
