import request from 'supertest';
import {
  DiscoverDocument,
  DiscoverMapDocument,
  EstimatesDocument,
  HomeDocument,
  VenueList,
} from '@yieldrouter/schemas';
import type { YieldsServer } from '@yieldrouter/chain-beds/yields';
import { makeYieldsPool } from '@yieldrouter/chain-beds/yields';
import type { TestApp } from './testing/startTestApp';
import { testKeys } from './testing/startTestApp';
import { startYieldsApp } from './testing/startYieldsApp';
import type { YieldsApp } from './testing/startYieldsApp';

// Home, discover, the discovery map and estimates, served from the snapshot with ETags; APY
// from a DefiLlama-shaped local source (morpho 4.2 %, kamino 6.5 %, suilend 3 %).
const MORPHO_VAULT = '0x52908400098527886E0F7030069857D2E4169EE7';
let t: TestApp;
let yields: YieldsServer;
let app: YieldsApp;

beforeAll(async () => {
  app = await startYieldsApp({
    pools: [
      makeYieldsPool({
        pool: 'p-morpho',
        chain: 'Base',
        project: 'morpho-blue',
        apy: 4.2,
        tvlUsd: 2_000_000,
      }),
      makeYieldsPool({
        pool: 'p-kamino',
        chain: 'Solana',
        project: 'kamino-lend',
        apy: 6.5,
        tvlUsd: 9_000_000,
      }),
      makeYieldsPool({
        pool: 'p-suilend',
        chain: 'Sui',
        project: 'suilend',
        apy: 3,
        tvlUsd: 500_000,
      }),
    ],
    poolOf: { morpho: 'p-morpho', kamino: 'p-kamino', suilend: 'p-suilend' },
    env: { SVC_VENUE_IDS: JSON.stringify({ morpho: { vault: MORPHO_VAULT } }) },
  });
  ({ t, yields } = app);
});
afterAll(() => app.close());

const get = (path: string) => request(t.app).get(`/api/v1${path}`);
const post = (path: string, body: unknown) =>
  request(t.app)
    .post(`/api/v1${path}`)
    .send(body as object);

describe('home document', () => {
  it('vetted venues, best APY first, unknown APY last with its reason; rows trimmed', async () => {
    const home = HomeDocument.parse((await get('/svc/home').expect(200)).body);
    const ids = home.opportunities.map((row) => row.venueId);
    expect(ids.slice(0, 3)).toEqual(['kamino', 'morpho', 'suilend']);
    const unknown = home.opportunities.slice(3);
    expect(unknown.length).toBeGreaterThan(0);
    for (const row of unknown) {
      expect(row.grossApyBps).toBeNull();
      expect(row.apyReason).toBe('source_not_configured');
    }
    expect(ids).not.toContain('drift'); // listed, not vetted
    const first = (await get('/svc/home')).body.opportunities[0];
    expect(Object.keys(first)).not.toEqual(expect.arrayContaining(['gross_apy_bps']));
    expect(first).not.toHaveProperty('apy');
    // The home rows carry the listing's readiness flags, the same values.
    const listed = (await get('/svc/opportunities?limit=200')).body as {
      opportunities: { venueId: string; depositable: boolean; depositBlockedReason: unknown }[];
    };
    for (const row of home.opportunities) {
      const entry = listed.opportunities.find((one) => one.venueId === row.venueId);
      expect([row.depositable, row.depositBlockedReason]).toEqual([
        entry?.depositable,
        entry?.depositBlockedReason,
      ]);
    }
  });

  it('protocols and markets: best APY per group; TVL summed only when every venue is known', async () => {
    const home = HomeDocument.parse((await get('/svc/home').expect(200)).body);
    expect(home.protocols[0]).toMatchObject({ protocol: 'Kamino Lend', bestApyBps: 650 });
    expect(home.protocols.find((row) => row.protocol.startsWith('Morpho'))).toMatchObject({
      chains: ['base'],
      tvlUsdMicros: '2000000000000',
    });
    const baseUsdc = home.markets.find((row) => row.chain === 'base');
    expect(baseUsdc).toMatchObject({ home: 'map', asset: 'USDC', bestApyBps: 420 });
    expect(home.markets.find((row) => row.chain === 'arbitrum')).toMatchObject({
      bestApyBps: null,
      bestOpportunityId: null,
    });
  });
});

describe('discover', () => {
  it('GET: every venue, apy_desc, limit 50, with the not-execution-truth note', async () => {
    const doc = DiscoverDocument.parse((await get('/svc/discover').expect(200)).body);
    expect(doc.filters).toEqual({ sort: 'apy_desc', limit: 50 });
    expect(doc.total).toBe(12);
    expect(doc.count).toBe(12);
    expect(doc.note).toContain('not execution truth');
    expect(doc.opportunities[0]?.grossApyBps).not.toBeNull();
  });

  it('POST filters: chain, protocol (case-blind), asset, readiness, min APY, min TVL, sort, limit', async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [
        { chain: 'solana', sort: 'priority' },
        ['kamino', 'jupiter-lend', 'save', 'marginfi', 'drift'],
      ],
      [{ protocol: 'KAMINO LEND' }, ['kamino']],
      [{ protocol: 'kamino' }, ['kamino']],
      [{ asset: 'usdc', minApyBps: 400 }, ['morpho', 'kamino']],
      [{ minTvlUsd: 1_000_000, sort: 'tvl_desc' }, ['kamino', 'morpho']],
      [{ ready: true }, ['morpho']],
      [{ sort: 'apy_asc', limit: 2, minApyBps: 0 }, ['suilend', 'morpho']],
    ];
    for (const [filters, expected] of cases) {
      const doc = DiscoverDocument.parse((await post('/svc/discover', filters).expect(200)).body);
      const ids = doc.opportunities.map((entry) => entry.venueId);
      if (filters['sort']) expect(ids).toEqual(expected);
      else expect(ids.sort()).toEqual([...expected].sort());
    }
  });

  it.each([
    [{ chain: 'ethereum' }, 'body.chain'],
    [{ protocol: 'nope' }, 'body.protocol'],
    [{ asset: 'DOGE' }, 'body.asset'],
    [{ limit: 0 }, 'body.limit'],
    [{ limit: 201 }, 'body.limit'],
    [{ minApyBps: -1 }, 'body.minApyBps'],
    [{ minApyBps: 1.5 }, 'body.minApyBps'],
    [{ sort: 'random' }, 'body.sort'],
    [{ color: 'blue' }, 'body.color'],
  ])('refuses %j naming %s', async (body, field) => {
    const res = await post('/svc/discover', body).expect(400);
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', field });
  });

  it('discover/map groups every venue by chain with its home label', async () => {
    const map = DiscoverMapDocument.parse((await get('/svc/discover/map').expect(200)).body);
    expect(map.chains.map((chain) => [chain.chain, chain.label, chain.writeReady])).toEqual([
      ['sui', 'Executable', true],
      ['solana', 'Executable', true],
      ['base', 'Map', false],
      ['arbitrum', 'Map', false],
    ]);
    expect(map.chains.reduce((sum, chain) => sum + chain.venues, 0)).toBe(12);
    expect(map.chains.find((chain) => chain.chain === 'base')).toMatchObject({
      readyVenues: 1,
      bestApyBps: 420,
    });
  });

  it('the venue list and the map venues share the snapshot and its ETag rules', async () => {
    const res = await get('/svc/venues').expect(200);
    expect(VenueList.parse(res.body).count).toBe(12);
    await get('/svc/venues')
      .set('If-None-Match', res.headers['etag'] as string)
      .expect(304);
    const map = VenueList.parse((await get('/svc/map/venues').expect(200)).body);
    expect(new Set(map.venues.map((venue) => venue.chain))).toEqual(new Set(['base', 'arbitrum']));
  });
});

describe('estimates', () => {
  it('GET: every opportunity for an amount over a year, net of the 5 % skim; null APY → null with a reason', async () => {
    const doc = EstimatesDocument.parse(
      (await get('/svc/estimates?amountMicros=1000000000').expect(200)).body,
    );
    expect(doc).toMatchObject({ days: 365, apyBasis: 'live', yieldSkimBps: 500 });
    const morpho = doc.estimates.find((row) => row.venueId === 'morpho');
    // 1,000 USDC × 4.2 % × 365/365 = 42 USDC gross; skim 2.1; net 39.9.
    expect(morpho).toMatchObject({
      apyBps: 420,
      grossYieldMicros: '42000000',
      yieldSkimMicros: '2100000',
      netYieldMicros: '39900000',
      reason: null,
    });
    const aave = doc.estimates.find((row) => row.venueId === 'aave-v3');
    expect(aave).toMatchObject({ apyBps: null, grossYieldMicros: null, netYieldMicros: null });
    expect(aave?.reason).toBe('source_not_configured');
  });

  it('POST: one opportunity by svcop id or form- alias, any horizon, rounding down', async () => {
    const home = HomeDocument.parse((await get('/svc/home').expect(200)).body);
    const kamino = home.opportunities.find((row) => row.venueId === 'kamino');
    for (const opportunityId of [kamino?.opportunityId, 'form-kamino', 'kamino']) {
      const doc = EstimatesDocument.parse(
        (
          await post('/svc/estimates', { opportunityId, amountMicros: '1000000', days: 30 }).expect(
            200,
          )
        ).body,
      );
      // 1 USDC × 6.5 % × 30/365 = 5342.46… micros → 5342 gross, skim 267, net 5075.
      expect(doc.estimates).toEqual([
        expect.objectContaining({
          venueId: 'kamino',
          grossYieldMicros: '5342',
          yieldSkimMicros: '267',
          netYieldMicros: '5075',
        }),
      ]);
    }
  });

  it('mean30d basis with too few samples is null with the sample count', async () => {
    const doc = EstimatesDocument.parse(
      (
        await post('/svc/estimates', {
          opportunityId: 'kamino',
          amountMicros: '1000000',
          apyBasis: 'mean30d',
        }).expect(200)
      ).body,
    );
    expect(doc.estimates[0]).toMatchObject({ apyBps: null, grossYieldMicros: null });
    expect(doc.estimates[0]?.reason).toMatch(/^too_few_samples/);
  });

  it.each([
    ['/svc/estimates', 'query.amountMicros'],
    ['/svc/estimates?amountMicros=1.5', 'query.amountMicros'],
    ['/svc/estimates?amountMicros=-5', 'query.amountMicros'],
    ['/svc/estimates?amountMicros=1&days=0', 'query.days'],
    ['/svc/estimates?amountMicros=1&days=abc', 'query.days'],
    ['/svc/estimates?amountMicros=1&apyBasis=best', 'query.apyBasis'],
    ['/svc/estimates?amountMicros=1&foo=1', 'query.foo'],
  ])('GET %s → 400 naming %s', async (path, field) => {
    expect((await get(path).expect(400)).body).toMatchObject({ code: 'BAD_REQUEST', field });
  });

  it('unknown opportunity → 404 strategy_unknown naming the field; huge amounts → 400', async () => {
    const res = await post('/svc/estimates', { opportunityId: 'nope', amountMicros: '1' }).expect(
      404,
    );
    expect(res.body).toMatchObject({ code: 'strategy_unknown', field: 'body.opportunityId' });
    const huge = await post('/svc/estimates', {
      opportunityId: 'morpho',
      amountMicros: '9223372036854775808',
    }).expect(400);
    expect(huge.body).toMatchObject({ code: 'BAD_REQUEST', field: 'body.amountMicros' });
    // A JSON number is taken only as a safe integer (v1 clients); 5.5 is not one.
    await post('/svc/estimates', { amountMicros: 5.5 }).expect(400);
  });
});

describe('snapshot revalidation', () => {
  it('serves an ETag and answers 304 to If-None-Match; a refresh of changed APY changes it', async () => {
    const first = await get('/svc/home').expect(200);
    const etag = first.headers['etag'] as string;
    expect(etag).toMatch(/^"[0-9a-f]{16}-[0-9a-f]{8}"$/);
    expect(first.headers['cache-control']).toBe('public, no-cache');
    const again = await get('/svc/home').set('If-None-Match', etag).expect(304);
    expect(again.text).toBe('');
    expect((await get('/svc/home').set('If-None-Match', `W/${etag}, "other"`)).status).toBe(304);

    yields.setPools([
      makeYieldsPool({
        pool: 'p-morpho',
        chain: 'Base',
        project: 'morpho-blue',
        apy: 9.9,
        tvlUsd: 2_000_000,
      }),
    ]);
    await request(t.app)
      .post('/api/v1/svc/map/venues/refresh')
      .set('X-API-Key', testKeys.owner)
      .expect(200);
    const changed = await get('/svc/home').set('If-None-Match', etag).expect(200);
    expect(changed.headers['etag']).not.toBe(etag);
    expect(HomeDocument.parse(changed.body).opportunities[0]?.venueId).toBe('morpho');
  });
});
