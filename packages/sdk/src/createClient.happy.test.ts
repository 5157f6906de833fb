import {
  SAMPLE_ADDRESSES,
  SAMPLE_PARAMS,
  TEST_WALLET,
  testKeys,
} from '@yieldrouter/api/testing/startTestApp';
import { clientRoutes, describeErrorCode, ErrorCode, routeList } from '@yieldrouter/schemas';
import type { RouteDefinition } from '@yieldrouter/schemas';
import { createClient } from './createClient';
import { NotFoundError, PermissionError, ValidationError } from './errors/httpErrors';
import { SchemaMismatchError } from './errors/SchemaMismatchError';
import { YieldRouterError } from './errors/YieldRouterError';
import type { YieldRouterClient } from './operationTypes';
import type { ListeningTestApp } from './testing/listenTestApp';
import { listenTestApp } from './testing/listenTestApp';
import { isBlockedPlan } from './plans/isBlockedPlan';

// No RPC is configured, so every balance leg reads N/A.
const ADDRESSES = SAMPLE_ADDRESSES;

let api: ListeningTestApp;
let client: YieldRouterClient;
beforeAll(async () => {
  api = await listenTestApp();
  client = createClient({ baseUrl: api.baseUrl });
});
afterAll(() => api.close());

describe('meta routes through the SDK (real API, validated responses)', () => {
  it('getHealth reports database and Redis up', async () => {
    const health = await client.getHealth();
    expect(health.checks).toEqual({ database: 'up', redis: 'up' });
  });

  it('getRoot links the OpenAPI document', async () => {
    expect((await client.getRoot()).links.openapi).toBe('/api/v1/openapi.json');
  });

  it('getOpenApi returns the OpenAPI 3.1 document', async () => {
    const document = await client.getOpenApi();
    expect(document['openapi']).toBe('3.1.0');
  });

  it('getStatus and getReadiness: phase 1, fees, everything off by default', async () => {
    for (const status of [await client.getStatus(), await client.getReadiness()]) {
      expect(status).toMatchObject({
        phase: 'phase-1',
        principalFeeBps: 0,
        protocolYieldSkimBps: 500,
        executionEnabled: false,
        broadcastEnabled: false,
      });
      expect(status.launchHomes).toEqual({
        executable: ['sui', 'solana'],
        map: ['base', 'arbitrum'],
      });
    }
  });

  it('getPackages: Executable and Map chains, unconfigured ids null with a reason', async () => {
    const packages = await client.getPackages();
    expect(packages.schemaVersion).toBe('svc-packages.v1');
    expect(packages.chains.map((chain) => [chain.chain, chain.label])).toEqual([
      ['sui', 'Executable'],
      ['solana', 'Executable'],
      ['base', 'Map'],
      ['arbitrum', 'Map'],
    ]);
    for (const object of packages.chains.flatMap((chain) => chain.objects)) {
      expect(object.id).toBeNull();
      expect(object.reason).toBeTruthy();
    }
  });

  it('getFees: principal 0, skim 500 bps, profit fee off', async () => {
    const fees = await client.getFees();
    expect(fees).toMatchObject({ principalFeeBps: 0, yieldSkimBps: 500 });
    expect(fees.harvestProfitFee.enabled).toBe(false);
  });

  it('getEnablement and the Map chains never broadcast', async () => {
    const enablement = await client.getEnablement();
    expect(enablement.chains.map((chain) => chain.chain)).toEqual([
      'sui',
      'solana',
      'base',
      'arbitrum',
    ]);
    for (const chain of [await client.getBaseEnablement(), await client.getArbitrumEnablement()]) {
      expect(chain).toMatchObject({ home: 'map', writeReady: false, broadcastEnabled: false });
    }
  });

  it('getSdk names this package; getVersion counts the manifest routes', async () => {
    expect((await client.getSdk()).packageName).toBe('@yieldrouter/sdk');
    expect((await client.getVersion()).routeCount).toBe(routeList.length);
  });

  it('getErrors lists the catalog with statuses', async () => {
    const catalog = await client.getErrors();
    expect(catalog.errors.find((entry) => entry.code === 'WALLET_SCOPE')?.status).toBe(403);
    expect(catalog.blockers.length).toBeGreaterThan(0);
  });

  it('getRoutes: the client has a method for every route the API lists but the keeper-only ones', async () => {
    const catalog = await client.getRoutes();
    expect(catalog.count).toBe(routeList.length);
    for (const route of catalog.routes) {
      const method = (client as unknown as Record<string, unknown>)[route.operationId];
      const operator = route.auth.length === 1 && route.auth[0] === 'keeper';
      expect(typeof method).toBe(operator ? 'undefined' : 'function');
    }
  });
});

describe('wallet balances through the SDK (no RPC configured)', () => {
  const methods = {
    sui: 'getSuiWalletBalance',
    solana: 'getSolanaWalletBalance',
    base: 'getBaseWalletBalance',
    arbitrum: 'getArbitrumWalletBalance',
  } as const;

  it.each(Object.keys(methods) as (keyof typeof methods)[])(
    '%s: 200 with every leg N/A, never a number',
    async (chain) => {
      const balance = await client[methods[chain]]({ query: { address: ADDRESSES[chain] } });
      expect(balance.chain).toBe(chain);
      expect(balance.complete).toBe(false);
      expect(balance.legs.length).toBeGreaterThanOrEqual(1);
      for (const leg of balance.legs) {
        expect(leg).toMatchObject({ status: 'unavailable', amount: null, display: 'N/A' });
        expect(leg.reason).toBe('rpc_not_configured');
      }
    },
  );
});

describe('venues and plans through the SDK', () => {
  it('listVenues covers the four chains; opportunities carry permanent svcop ids', async () => {
    const venues = await client.listVenues();
    expect(new Set(venues.venues.map((venue) => venue.chain))).toEqual(
      new Set(['sui', 'solana', 'base', 'arbitrum']),
    );
    const { opportunities } = await client.listOpportunities();
    for (const opportunity of opportunities) expect(opportunity.opportunityId).toMatch(/^svcop/);
  });

  it('filters, sort, pages and the APY history are typed calls', async () => {
    const page = await client.listOpportunities({
      query: { chain: 'base', sortBy: 'tvl', limit: '1' },
    });
    expect(page.count).toBe(1);
    expect(page.total).toBeGreaterThan(1);
    expect(page.nextCursor).toBe(page.opportunities[0]?.opportunityId);
    const history = await client.getOpportunityApyHistory({
      params: { id: page.opportunities[0]?.opportunityId ?? '' },
      query: { window: '7d' },
    });
    expect(history).toMatchObject({ schemaVersion: 'svc-apy-history.v1', window: '7d' });
    expect(history.points).toHaveLength(8);
  });

  it('a blocked plan is a typed result with blockers, not an exception', async () => {
    const plan = await client.prepareDepositPlan({
      body: { strategyId: 'form-suilend', amountMicros: '1000000' },
    });
    expect(isBlockedPlan(plan)).toBe(true);
    if (!isBlockedPlan(plan)) throw new Error('expected a blocked plan');
    expect(plan.blockers.map((blocker) => blocker.code)).toContain('owner_missing');
    expect(plan).toMatchObject({ strategyId: 'suilend', venueId: 'suilend', feeMicros: '0' });
  });

  it('a gas-sponsor plan is a typed call; with no RPC for the chain it comes back blocked', async () => {
    const fees = await client.getFees();
    expect(fees.gasSponsorFeeBps).toBe(50);
    const plan = await client.prepareGasSponsorPlan({
      body: {
        chain: 'base',
        owner: ADDRESSES.base,
        calls: [{ to: ADDRESSES.arbitrum, data: '0x', value: '0' }],
      },
    });
    expect(isBlockedPlan(plan)).toBe(true);
    if (!isBlockedPlan(plan)) throw new Error('expected a blocked plan');
    expect(plan.blockers.map((blocker) => blocker.code)).toEqual(['rpc_unavailable']);
    expect(plan).toMatchObject({ kind: 'gas_sponsor', chain: 'base', feeMicros: '0' });
    await expect(
      client.prepareGasSponsorPlan({ body: { chain: 'base', owner: ADDRESSES.solana, calls: [] } }),
    ).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('wallet reads through the SDK (agent key scoped to TEST_WALLET)', () => {
  let agent: YieldRouterClient;
  beforeAll(() => {
    agent = createClient({ baseUrl: api.baseUrl, apiKey: testKeys.agent, retries: 0 });
  });
  const params = { address: TEST_WALLET };

  it('position, portfolio, performance and funding are typed documents for the wallet', async () => {
    expect(await agent.getPosition({ params })).toMatchObject({
      schemaVersion: 'svc-wallet-position.v1',
      wallet: TEST_WALLET,
    });
    expect(await agent.getWalletPortfolio({ params })).toMatchObject({
      schemaVersion: 'svc-wallet-balances.v1',
      wallet: TEST_WALLET,
    });
    expect(await agent.getPerformance({ params })).toMatchObject({
      schemaVersion: 'svc-wallet-performance.v1',
      wallet: TEST_WALLET,
    });
    expect(await agent.getFunding({ params })).toMatchObject({
      schemaVersion: 'svc-wallet-funding.v1',
      wallet: TEST_WALLET,
    });
  });

  it('auto-yield is off by default', async () => {
    expect(await agent.getAutoYield({ params })).toMatchObject({
      wallet: TEST_WALLET,
      enabled: false,
    });
  });

  it('a character mapped to the wallet by the key reads that wallet; an unmapped one is refused', async () => {
    // startTestApp maps SAMPLE_PARAMS.character_id to TEST_WALLET for the owner and agent keys.
    expect(
      await agent.getCharacterPosition({
        params: { character_id: SAMPLE_PARAMS['character_id']! },
      }),
    ).toMatchObject({ schemaVersion: 'svc-wallet-position.v1', wallet: TEST_WALLET });
    const error = await agent
      .getCharacterPosition({ params: { character_id: 'character-not-mapped' } })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(PermissionError);
    expect(error).toMatchObject({
      status: 403,
      code: 'CHARACTER_SCOPE',
      field: 'path.character_id',
    });
  });
});

describe('auto-pay through the SDK', () => {
  const params = { address: TEST_WALLET };
  const owner = () => createClient({ baseUrl: api.baseUrl, apiKey: testKeys.owner });
  const config = {
    enabled: true,
    percentage: 25,
    payees: [
      { payeeId: 'ops', address: ADDRESSES.base, weightBps: 7_000 },
      { payeeId: 'dev', address: ADDRESSES.arbitrum, weightBps: 3_000 },
    ],
    trigger: 'manual' as const,
    dustMicros: '100',
  };

  it('the owner sets the config, the agent reads it, the public plan says nothing is payable', async () => {
    const set = await owner().setAutoPay({ params, body: config });
    expect(set.config).toMatchObject({ percentage: 25, dustMicros: '100', trigger: 'manual' });
    const agent = createClient({ baseUrl: api.baseUrl, apiKey: testKeys.agent });
    expect((await agent.getAutoPay({ params })).config).toEqual(set.config);
    const refused = await agent.setAutoPay({ params, body: config }).catch((error) => error);
    expect(refused).toBeInstanceOf(PermissionError);
    expect(await client.prepareAutoPayPlan({ body: { wallet: TEST_WALLET } })).toMatchObject({
      status: 'blocked',
      stored: false,
      blockers: [{ code: 'auto_pay_nothing_payable' }],
    });
    const run = await owner()
      .autoPay({ params, body: {} })
      .catch((error) => error);
    expect(run).toMatchObject({ status: 422, code: 'AUTO_PAY_NOTHING_PAYABLE' });
  });
});

describe('every implemented GET route agrees with the SDK schemas', () => {
  // Sample inputs by name. The test keys are scoped to TEST_WALLET (SAMPLE_PARAMS.address) and
  // map SAMPLE_PARAMS.character_id to it, so wallet and character routes answer for real (a 403
  // scope refusal is a failure here). A 2xx proves the response matches the schema (the client
  // validates it); a refusal of the sample input (400/404/422) still proves the request reached
  // its handler, and must be the SDK's typed error for that status with a catalog code.
  const sampleQuery = (route: RouteDefinition): Record<string, string> => {
    const chain = /\/svc\/(sui|solana|base|arbitrum)\//.exec(route.path)?.[1] as
      keyof typeof ADDRESSES | undefined;
    const keys = Object.keys(route.request.query?.shape ?? {});
    const values: Record<string, string> = {
      address: chain ? ADDRESSES[chain] : TEST_WALLET,
      wallet: TEST_WALLET,
    };
    return Object.fromEntries(keys.flatMap((key) => (values[key] ? [[key, values[key]]] : [])));
  };
  const errorTypes: Readonly<Record<number, typeof YieldRouterError>> = {
    400: ValidationError,
    404: NotFoundError,
    422: YieldRouterError,
  };

  it('answers 2xx with a schema-valid body, or a typed 4xx for the sample input', async () => {
    const implemented = (await client.getRoutes()).routes.filter((route) => route.implemented);
    const checked: string[] = [];
    for (const route of Object.values(clientRoutes) as RouteDefinition[]) {
      if (route.method !== 'get' || !implemented.some((r) => r.operationId === route.operationId)) {
        continue;
      }
      const role = route.auth === 'public' ? undefined : route.auth[0];
      const caller = createClient({
        baseUrl: api.baseUrl,
        ...(role ? { apiKey: testKeys[role] } : {}),
        retries: 0,
      });
      const call = (caller as unknown as Record<string, (p: object) => Promise<unknown>>)[
        route.operationId
      ];
      const params = Object.keys(route.request.params?.shape ?? {});
      const outcome = await call!({
        params: Object.fromEntries(params.map((name) => [name, SAMPLE_PARAMS[name]])),
        query: sampleQuery(route),
      }).catch((error: unknown) => error);
      if (outcome instanceof YieldRouterError) {
        // A refusal of the sample input: the typed class for its status, with a catalog code.
        const seen = { operationId: route.operationId, status: outcome.status, code: outcome.code };
        expect(outcome).not.toBeInstanceOf(SchemaMismatchError);
        expect({ ...seen, refused: [400, 404, 422].includes(outcome.status) }).toEqual({
          ...seen,
          refused: true,
        });
        expect(outcome.constructor).toBe(errorTypes[outcome.status]);
        const code = ErrorCode.safeParse(outcome.code);
        expect({ ...seen, catalogued: code.success }).toEqual({ ...seen, catalogued: true });
        if (code.success) expect(describeErrorCode(code.data).status).toBe(outcome.status);
      } else {
        // A typed result: the schema-validated body, never another kind of error.
        expect({ operationId: route.operationId, error: outcome instanceof Error }).toEqual({
          operationId: route.operationId,
          error: false,
        });
        expect(typeof outcome).toBe('object');
        expect(outcome).not.toBeNull();
      }
      checked.push(route.operationId);
    }
    // Every implemented GET route but the keeper-only ones (not in the SDK).
    const operator = (route: { auth: string[] }) =>
      route.auth.length === 1 && route.auth[0] === 'keeper';
    expect(checked.length).toBe(
      implemented.filter((route) => route.method === 'GET' && !operator(route)).length,
    );
  });
});
