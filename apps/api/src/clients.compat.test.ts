import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { AutoYieldDocument, PlanDocument, RoutePreview } from '@yieldrouter/schemas';
import type { TestApp } from './testing/startTestApp';
import { testKeys } from './testing/startTestApp';
import type { VaultBedApp } from './testing/startVaultBedApp';
import { startVaultBedApp } from './testing/startVaultBedApp';

// What an independently written v1 client sends, accepted with the documented effect (docs/api.md,
// "Clients"): bodies without a Content-Type, the route's optional fields and chain choice,
// preview taking what route takes, withdraw's body key, auto-yield's aliases, the execute alias
// shape, and amounts as safe-integer JSON numbers.

const ownerKey = `owner-all-${randomBytes(6).toString('hex')}`;
const EVM_WALLET = '0x2222222222222222222222222222222222222222';
const SUI_WALLET = `0x${'ab'.repeat(32)}`;

let t: TestApp;

let bed: VaultBedApp;
beforeAll(async () => {
  bed = await startVaultBedApp({
    // The subscribe test's receiver is on loopback.
    SVC_WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    SVC_API_KEYS: JSON.stringify([
      { key: ownerKey, role: 'owner', wallets: ['*'] },
      { key: testKeys.keeper, role: 'keeper', wallets: ['*'] },
    ]),
  });
  t = bed.t;
});
afterAll(() => bed?.close());

const post = (path: string, body: object, apiKey = ownerKey) =>
  request(t.app).post(`/api/v1${path}`).set('X-API-Key', apiKey).send(body);
const codes = (blockers: readonly { code: string }[] | undefined) =>
  (blockers ?? []).map((blocker) => blocker.code);

describe('bodies without a Content-Type', () => {
  it('are read as JSON, as is text/plain (fetch with a string body); another type is 415', async () => {
    const body = JSON.stringify({ wallets: [EVM_WALLET] });
    const res = await request(t.app)
      .post('/api/v1/wallets/batch/positions')
      .set('X-API-Key', ownerKey)
      .set('Content-Length', String(Buffer.byteLength(body)))
      .unset('Content-Type')
      .send(Buffer.from(body));
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(1);
    // Issue 41: the peer client's fetch labels a string body text/plain.
    const plain = await request(t.app)
      .post('/api/v1/wallets/batch/positions')
      .set('X-API-Key', ownerKey)
      .set('Content-Type', 'text/plain;charset=UTF-8')
      .send(body);
    expect([plain.status, plain.body.count]).toEqual([200, 1]);
    const declared = await request(t.app)
      .post('/api/v1/wallets/batch/positions')
      .set('X-API-Key', ownerKey)
      .set('Content-Type', 'application/xml')
      .send(body);
    expect([declared.status, declared.body.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const broken = await request(t.app)
      .post('/api/v1/wallets/batch/positions')
      .set('X-API-Key', ownerKey)
      .unset('Content-Type')
      .send(Buffer.from('{"wallets": ['));
    expect([broken.status, broken.body.code]).toEqual([400, 'BAD_REQUEST']);
  });

  it('subscribe to webhooks: POST /svc/webhooks takes its JSON body', async () => {
    const body = JSON.stringify({
      url: 'http://127.0.0.1:9/hook',
      eventTypes: ['deposit.settled'],
    });
    const res = await request(t.app)
      .post('/api/v1/svc/webhooks')
      .set('X-API-Key', ownerKey)
      .set('Content-Length', String(Buffer.byteLength(body)))
      .unset('Content-Type')
      .send(Buffer.from(body));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      url: 'http://127.0.0.1:9/hook',
      eventTypes: ['deposit.settled'],
      hmacKey: expect.any(String),
    });
    const listed = await request(t.app)
      .get('/api/v1/svc/webhooks')
      .set('X-API-Key', ownerKey)
      .expect(200);
    expect(JSON.stringify(listed.body)).toContain(res.body.id);
  });
});

describe('route and preview', () => {
  it('preview takes what route takes, token and all', async () => {
    const res = await post(`/wallets/${SUI_WALLET}/preview`, {
      amountMicros: '1000000',
      token: 'USDC',
      stake: false,
      goal: 'stable_yield',
      riskTolerance: 'low',
      autoCompound: true,
    }).expect(200);
    expect(RoutePreview.parse(res.body)).toMatchObject({ chain: 'sui', chainChosenBy: 'address' });
    const other = await post(`/wallets/${SUI_WALLET}/preview`, {
      amountMicros: '1000000',
      token: 'SUI',
    });
    expect([other.status, other.body.field]).toEqual([400, 'body.token']);
  });

  it('without chain: the only chain the address fits, else preferredChains', async () => {
    const sui = PlanDocument.parse(
      (await post(`/wallets/${SUI_WALLET}/route`, { amountMicros: '1000000', token: 'USDC' })).body,
    );
    expect(sui).toMatchObject({ chain: 'sui', chainChosenBy: 'address' });
    const evmPlan = PlanDocument.parse(
      (
        await post(`/wallets/${EVM_WALLET}/route`, {
          amountMicros: '1000000',
          token: 'USDC',
          preferredChains: ['solana', 'arbitrum', 'base'],
          goal: 'max_yield',
        }).expect(200)
      ).body,
    );
    expect(evmPlan).toMatchObject({ chain: 'arbitrum', chainChosenBy: 'preferred_chains' });
    const stored = await t.db.plan.findUniqueOrThrow({
      where: { id: evmPlan.planId ?? '' },
    });
    expect(stored.request).toMatchObject({ goal: 'max_yield', chain: 'arbitrum' });
  });

  it('without chain or preference: the best ready opportunity the address fits, or a 400', async () => {
    const listing = await request(t.app).get('/api/v1/svc/opportunities').expect(200);
    const evmReady = (listing.body.opportunities as { chain: string; ready: boolean }[]).filter(
      (entry) => entry.ready && (entry.chain === 'base' || entry.chain === 'arbitrum'),
    );
    const res = await post(`/wallets/${EVM_WALLET}/route`, {
      amountMicros: '1000000',
      token: 'USDC',
    });
    if (evmReady.length > 0) {
      expect(res.body).toMatchObject({ chainChosenBy: 'best_opportunity' });
    } else {
      expect([res.status, res.body.field]).toEqual([400, 'body.chain']);
    }
  });

  it('autoBridge: true is a blocked plan naming the bridge plan; nothing moves', async () => {
    const res = await post(`/wallets/${EVM_WALLET}/route`, {
      amountMicros: '1000000',
      token: 'USDC',
      chain: 'base',
      autoBridge: true,
    }).expect(200);
    const plan = PlanDocument.parse(res.body);
    expect(plan.status).toBe('blocked');
    expect(codes(plan.blockers)).toEqual(['bridge_not_available']);
    expect(plan.blockers?.[0]?.message).toContain('/svc/bridge/plan');
  });

  it('amounts as JSON numbers: a safe integer is taken, anything else says amounts are strings', async () => {
    const res = await post(`/wallets/${SUI_WALLET}/route`, {
      amountMicros: 2_500_000,
      token: 'USDC',
    });
    expect(res.status).toBe(200);
    expect(res.body.amountMicros).toBe('2500000');
    for (const amountMicros of [1.5, 2 ** 60, -3]) {
      const bad = await post(`/wallets/${SUI_WALLET}/route`, { amountMicros, token: 'USDC' });
      expect([bad.status, bad.body.field]).toEqual([400, 'body.amountMicros']);
      expect(bad.body.message).toContain('amounts are decimal strings');
    }
  });
});

describe('withdraw', () => {
  it('takes token, unstakeFirst and the Idempotency-Key in the body', async () => {
    const wallet = `0x${randomBytes(20).toString('hex')}`;
    const idempotencyKey = `v1-${randomBytes(6).toString('hex')}`;
    const body = { amountMicros: '1000000', token: 'USDC', unstakeFirst: true, idempotencyKey };
    const first = await post(`/wallets/${wallet}/withdraw`, body);
    expect([first.status, first.body.code]).toEqual([422, 'INSUFFICIENT_LIQUID']);
    // The same key in the header is the same request: the first answer is replayed.
    const again = await request(t.app)
      .post(`/api/v1/wallets/${wallet}/withdraw`)
      .set('X-API-Key', ownerKey)
      .set('Idempotency-Key', idempotencyKey)
      .send(body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.requestId).toBe(first.body.requestId);
    const mismatch = await request(t.app)
      .post(`/api/v1/wallets/${wallet}/withdraw`)
      .set('X-API-Key', ownerKey)
      .set('Idempotency-Key', 'another-key')
      .send(body);
    expect([mismatch.status, mismatch.body.field]).toEqual([400, 'body.idempotencyKey']);
    const token = await post(`/wallets/${wallet}/withdraw`, { amountMicros: '1', token: 'ETH' });
    expect([token.status, token.body.field]).toEqual([400, 'body.token']);
  });
});

describe('auto-yield aliases', () => {
  it('targetVenue names the venue, maxStakeMicros caps a route with stake, "0" resets it', async () => {
    const wallet = `0x${randomBytes(20).toString('hex')}`;
    const put = (body: object) =>
      request(t.app)
        .put(`/api/v1/wallets/${wallet}/auto-yield`)
        .set('X-API-Key', ownerKey)
        .send(body);
    const set = AutoYieldDocument.parse(
      (await put({ enabled: true, targetVenue: 'morpho', maxStakeMicros: '5000000' }).expect(200))
        .body,
    );
    expect(set).toMatchObject({ venueId: 'morpho', maxStakeMicros: '5000000' });
    const clash = await put({ enabled: true, targetVenue: 'morpho', opportunityId: 'kamino' });
    expect([clash.status, clash.body.field]).toEqual([400, 'body.targetVenue']);
    const over = await post(`/wallets/${wallet}/route`, {
      amountMicros: '6000000',
      token: 'USDC',
      chain: 'base',
      stake: true,
    }).expect(200);
    expect(codes(PlanDocument.parse(over.body).blockers)).toContain('auto_yield_cap_reached');
    const preview = await post(`/wallets/${wallet}/preview`, {
      amountMicros: '6000000',
      chain: 'base',
      stake: true,
    }).expect(200);
    expect(codes(RoutePreview.parse(preview.body).blockers)).toContain('auto_yield_cap_reached');
    const reset = await put({ enabled: true, targetVenue: 'morpho', maxStakeMicros: '0' });
    expect(reset.body.maxStakeMicros).toBeNull();
    const after = await post(`/wallets/${wallet}/route`, {
      amountMicros: '6000000',
      token: 'USDC',
      chain: 'base',
      stake: true,
    }).expect(200);
    expect(codes(PlanDocument.parse(after.body).blockers)).not.toContain('auto_yield_cap_reached');
  });
});

describe('deposit plan and execute aliases', () => {
  const owner = () => `0x${randomBytes(20).toString('hex')}`;
  const depositPlan = (wallet: string, amountMicros: string) =>
    post('/svc/strategies/deposit/plan', {
      strategyId: 'morpho',
      amountMicros,
      owner: wallet,
      autoYieldEnabled: true,
    }).expect(200);

  it('execute by strategyId, owner and amount finds the one plan; none 404, several 409', async () => {
    const wallet = owner();
    const plan = PlanDocument.parse((await depositPlan(wallet, '1000000')).body);
    expect(plan.status).toBe('prepared');
    const execute = (amountMicros: string) =>
      post('/svc/strategies/deposit/execute', {
        strategyId: 'morpho',
        amountMicros,
        owner: wallet,
        signedTx: '0x02f8',
      });
    // Found: the next check runs (broadcast is off in tests), which proves the plan resolved.
    const found = await execute('1000000');
    expect([found.status, found.body.code]).toEqual([422, 'BROADCAST_DISABLED']);
    const none = await execute('7000000');
    expect([none.status, none.body.code, none.body.field]).toEqual([
      404,
      'PLAN_NOT_FOUND',
      'body.planId',
    ]);
    await depositPlan(wallet, '1000000');
    const several = await execute('1000000');
    expect([several.status, several.body.code, several.body.field]).toEqual([
      409,
      'PLAN_AMBIGUOUS',
      'body.planId',
    ]);
    const incomplete = await post('/svc/strategies/deposit/execute', {
      strategyId: 'morpho',
      signedTx: '0x02f8',
    });
    expect([incomplete.status, incomplete.body.field]).toEqual([400, 'body.owner']);
  });
});

describe('listing filters v1 clients pass', () => {
  type Entry = { chain: string; readiness: string; tvlUsdMicros: string | null };
  const list = async (path: string, field: string) => {
    const res = await request(t.app).get(`/api/v1${path}`).expect(200);
    return res.body[field] as Entry[];
  };

  it('chain, status and min_tvl_usd filter strategies, forms, map venues and opportunities', async () => {
    const all = await list('/svc/strategies', 'strategies');
    expect(new Set(all.map((entry) => entry.chain)).size).toBeGreaterThan(1);
    for (const [path, field] of [
      ['/svc/strategies', 'strategies'],
      ['/svc/strategies/priority', 'strategies'],
      ['/svc/forms', 'forms'],
      ['/svc/opportunities', 'opportunities'],
    ] as const) {
      const onBase = await list(`${path}?chain=base`, field);
      expect(onBase.length).toBe(all.filter((entry) => entry.chain === 'base').length);
      expect(onBase.every((entry) => entry.chain === 'base')).toBe(true);
      const planned = await list(`${path}?status=planned`, field);
      expect(planned.length).toBe(all.filter((entry) => entry.readiness === 'planned').length);
      const rich = await list(`${path}?min_tvl_usd=1`, field);
      expect(rich).toEqual(await list(`${path}?minTvlUsd=1`, field));
      expect(rich.every((entry) => entry.tvlUsdMicros !== null)).toBe(true);
    }
    const map = await list('/svc/map/venues?chain=arbitrum', 'venues');
    expect(map.every((entry) => entry.chain === 'arbitrum')).toBe(true);
  });

  it('refuses an unknown filter, a bad value, and the two TVL names disagreeing, naming the field', async () => {
    for (const [query, field] of [
      ['status=active', 'query.status'],
      ['chain=dogecoin', 'query.chain'],
      ['colour=blue', 'query.colour'],
      ['minTvlUsd=5&min_tvl_usd=6', 'query.min_tvl_usd'],
    ]) {
      const res = await request(t.app).get(`/api/v1/svc/strategies?${query}`);
      expect([res.status, res.body.field]).toEqual([400, field]);
    }
  });
});

// Last: it leaves the Base bed's external account at −(2^63 − 1).
describe('amounts at the edge of the books', () => {
  it('a route that would take a balance past 2^63 − 1 micros is 422, not a 500; nothing moves', async () => {
    const wallet = `0x${randomBytes(20).toString('hex')}`;
    const route = () =>
      post(`/wallets/${wallet}/route`, {
        amountMicros: '9223372036854775807',
        token: 'USDC',
        chain: 'base',
        stake: true,
      });
    // The first may already pass the range of the chain's external account (other tests routed
    // on Base); the second passes the wallet's own pending_in at the latest.
    const outcomes = [await route(), await route()];
    const refused = outcomes.filter((res) => res.status !== 200);
    expect(refused.length).toBeGreaterThan(0);
    for (const res of refused) {
      expect([res.status, res.body.code]).toEqual([422, 'AMOUNT_OUT_OF_RANGE']);
    }
    const position = await request(t.app)
      .get(`/api/v1/wallets/${wallet}/position`)
      .set('X-API-Key', ownerKey)
      .expect(200);
    expect(position.body.pendingInMicros).toBe(refused.length === 1 ? '9223372036854775807' : '0');
  });
});
