import request from 'supertest';
import { ApyHistoryDocument, HomeDocument, OpportunityList } from '@yieldrouter/schemas';
import type { Opportunity } from '@yieldrouter/schemas';
import { makeYieldsPool } from '@yieldrouter/chain-beds/yields';
import type { TestApp } from './testing/startTestApp';
import { startYieldsApp } from './testing/startYieldsApp';
import type { YieldsApp } from './testing/startYieldsApp';

// GET /svc/opportunities: the decision record on every opportunity, filters, sort and pages
// against seeded opportunities (morpho 4.2 % / 2 M USD, kamino 6.5 % / 9 M, suilend 3 % / 0.5 M
// and an outlier), and the APY history route. APY from a DefiLlama-shaped local source.
const MORPHO_VAULT = '0x52908400098527886E0F7030069857D2E4169EE7';
let t: TestApp;
let app: YieldsApp;

beforeAll(async () => {
  // Three readings: enough samples for the 30-day mean (SVC_APY_MEAN_MIN_SAMPLES defaults to 3).
  app = await startYieldsApp({
    pools: [
      makeYieldsPool({ pool: 'p-morpho', apy: 4.2, apyBase: 4.2, tvlUsd: 2_000_000 }),
      makeYieldsPool({
        pool: 'p-kamino',
        chain: 'Solana',
        apy: 6.5,
        apyBase: 5,
        apyReward: 1.5,
        tvlUsd: 9_000_000,
        exposure: 'multi',
        ilRisk: 'yes',
        rewardTokens: ['KMNo3nJsBXfcpJTVhZcXLW7RmTwTt4GVFE7suUBo9sS'],
      }),
      makeYieldsPool({
        pool: 'p-suilend',
        chain: 'Sui',
        apy: 3,
        apyBase: 3,
        tvlUsd: 500_000,
        outlier: true,
        stablecoin: false,
      }),
    ],
    poolOf: { morpho: 'p-morpho', kamino: 'p-kamino', suilend: 'p-suilend' },
    env: { SVC_VENUE_IDS: JSON.stringify({ morpho: { vault: MORPHO_VAULT } }) },
    refreshes: 3,
  });
  ({ t } = app);
});
afterAll(() => app.close());

const get = (path: string) => request(t.app).get(`/api/v1${path}`);
const list = async (query = '') =>
  OpportunityList.parse((await get(`/svc/opportunities${query}`).expect(200)).body);
const ids = (page: OpportunityList) => page.opportunities.map((entry) => entry.venueId);
const byId = async (venueId: string): Promise<Opportunity> => {
  const found = (await list()).opportunities.find((entry) => entry.venueId === venueId);
  if (!found) throw new Error(`no ${venueId}`);
  return found;
};

describe('the record', () => {
  it('every field on every opportunity: a value, or null with a reason; never 0 for unknown', async () => {
    const page = await list();
    expect(page.total).toBeGreaterThan(3);
    for (const entry of page.opportunities) {
      expect(entry.apy.totalBps).toBe(entry.grossApyBps);
      if (entry.grossApyBps === null) expect(entry.apy.reason).toEqual(expect.any(String));
      if (entry.tvl.usdMicros === null || entry.tvl.nativeUnits === null) {
        expect(entry.tvl.reason).toEqual(expect.any(String));
      }
      if (entry.caps.totalUnits === null || entry.caps.maxUnits === null) {
        expect(entry.caps.reason).toEqual(expect.any(String));
      }
      if (entry.tokens.underlying === null || entry.tokens.receipt === null) {
        expect(entry.tokens.reason).toEqual(expect.any(String));
      }
      if (entry.risk.outlier === null) expect(entry.risk.reason).toEqual(expect.any(String));
      expect(entry.timeLockSeconds === null ? entry.timeLockReason : 'known').toEqual(
        expect.any(String),
      );
      // Only morpho has its ids here: a Base deposit or withdraw plan prepares (the owner
      // submits it), so it is depositable though Base is not write-ready.
      const configured = entry.venueId === 'morpho';
      expect([entry.depositable, entry.redeemable]).toEqual([configured, configured]);
      expect(entry.depositBlocker === null).toBe(configured);
    }
    const unknown = page.opportunities.find((entry) => entry.venueId === 'drift');
    expect(unknown?.apy).toMatchObject({ totalBps: null, d1Bps: null, d7Bps: null });
    expect(unknown?.tvl).toMatchObject({ usdMicros: null, nativeUnits: null });
  });

  it('APY parts, 1-day and 7-day means with their sample counts, TVL in USD micros', async () => {
    const kamino = await byId('kamino');
    expect(kamino.apy).toMatchObject({
      totalBps: 650,
      baseBps: 500,
      rewardBps: 150,
      d1Bps: 650,
      d1Samples: 3,
      d7Bps: 650,
      d7Samples: 3,
      source: 'defillama',
    });
    expect(kamino.apyMean30dBps).toBe(650);
    expect(kamino.tvl.usdMicros).toBe('9000000000000');
    expect(kamino.tokens.rewards).toEqual([
      {
        address: 'KMNo3nJsBXfcpJTVhZcXLW7RmTwTt4GVFE7suUBo9sS',
        decimals: null,
        source: 'defillama',
      },
    ]);
  });

  it('risk signals as the source gives them', async () => {
    const [kamino, suilend] = [await byId('kamino'), await byId('suilend')];
    expect(kamino.risk).toMatchObject({
      outlier: false,
      exposure: 'multi',
      ilRisk: 'yes',
      predictedClass: 'Stable/Up',
      source: 'defillama',
      reason: null,
    });
    expect(kamino.risk.tags).toEqual(['stablecoin', 'lending']);
    expect(suilend.risk).toMatchObject({ outlier: true, exposure: 'single' });
    expect(suilend.risk.tags).toEqual(['lending']);
  });

  it('caps and native TVL: null with the reason where no chain read exists', async () => {
    const morpho = await byId('morpho');
    expect(morpho.caps).toMatchObject({ totalUnits: null, maxUnits: null, remainingUnits: null });
    expect(morpho.caps.reason).toMatch(/RPC|rpc|not configured|unavailable/i);
    expect(morpho.tokens.receipt).toEqual({
      address: MORPHO_VAULT,
      decimals: null,
      source: 'configuration',
    });
  });
});

describe('filters and sort', () => {
  it('chain, asset (case-blind), protocol, minTvlUsd, minApyBps, depositable', async () => {
    expect(ids(await list('?chain=solana'))).toContain('kamino');
    for (const entry of (await list('?chain=solana')).opportunities) {
      expect(entry.chain).toBe('solana');
    }
    expect((await list('?asset=usdc')).total).toBe((await list()).total);
    expect(ids(await list('?protocol=morpho'))).toEqual(['morpho']);
    expect(new Set(ids(await list('?minTvlUsd=1000000')))).toEqual(new Set(['morpho', 'kamino']));
    expect(new Set(ids(await list('?minApyBps=400')))).toEqual(new Set(['morpho', 'kamino']));
    expect(ids(await list('?depositable=true'))).toEqual(['morpho']);
    expect((await list('?depositable=false')).total).toBe((await list()).total - 1);
  });

  it('sortBy tvl / apy / apy30d in either order, unknown values last', async () => {
    expect(ids(await list('?sortBy=tvl')).slice(0, 3)).toEqual(['kamino', 'morpho', 'suilend']);
    expect(ids(await list('?sortBy=tvl&order=asc')).slice(0, 3)).toEqual([
      'suilend',
      'morpho',
      'kamino',
    ]);
    expect(ids(await list('?sortBy=apy&order=asc')).slice(0, 3)).toEqual([
      'suilend',
      'morpho',
      'kamino',
    ]);
    const by30d = await list('?sortBy=apy30d');
    expect(ids(by30d).slice(0, 3)).toEqual(['kamino', 'morpho', 'suilend']);
    expect(by30d.opportunities.slice(3).every((entry) => entry.apyMean30dBps === null)).toBe(true);
  });

  it('/svc/home ranks as sortBy=apy (desc) does', async () => {
    const home = HomeDocument.parse((await get('/svc/home').expect(200)).body);
    const ranked = (await list('?sortBy=apy&order=desc')).opportunities.filter(
      (entry) => entry.readiness === 'ready',
    );
    expect(home.opportunities.map((row) => row.venueId)).toEqual(ranked.map((row) => row.venueId));
  });

  it('cursor pages cover the listing once, with total on each page', async () => {
    const all = ids(await list('?sortBy=apy'));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: OpportunityList = await list(
        `?sortBy=apy&limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.total).toBe(all.length);
      expect(page.count).toBe(page.opportunities.length);
      seen.push(...ids(page));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(seen).toEqual(all);
  });

  it('the same query is one cached document: ETag and 304', async () => {
    const first = await get('/svc/opportunities?sortBy=tvl&chain=base').expect(200);
    const etag = first.headers['etag'] as string;
    expect(etag).toBeTruthy();
    await get('/svc/opportunities?chain=base&sortBy=tvl').set('If-None-Match', etag).expect(304);
    const other = await get('/svc/opportunities?sortBy=apy&chain=base').expect(200);
    expect(other.headers['etag']).not.toBe(etag);
  });

  it.each([
    ['?sort=apy', 'query.sort'],
    ['?minTvl=5', 'query.minTvl'],
    ['?minTvlUsd=abc', 'query.minTvlUsd'],
    ['?minTvlUsd=-1', 'query.minTvlUsd'],
    ['?minApyBps=1.5', 'query.minApyBps'],
    ['?sortBy=yield', 'query.sortBy'],
    ['?order=up', 'query.order'],
    ['?limit=0', 'query.limit'],
    ['?depositable=yes', 'query.depositable'],
    ['?chain=mars', 'query.chain'],
    ['?asset=DOGE', 'query.asset'],
    ['?protocol=nobody', 'query.protocol'],
    ['?cursor=svcop00', 'query.cursor'],
    ['?cursor=nope', 'query.cursor'],
  ])('%s is a 400 naming %s', async (query, field) => {
    const res = await get(`/svc/opportunities${query}`).expect(400);
    expect(res.body).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect(`${res.body.field ?? ''} ${res.body.message}`).toContain(field);
  });
});

describe('GET /svc/opportunities/{id}/apy-history', () => {
  it('daily points for the window; the window mean is the listing apyMean30dBps', async () => {
    const kamino = await byId('kamino');
    for (const id of [kamino.opportunityId, 'kamino', 'form-kamino']) {
      const history = ApyHistoryDocument.parse(
        (await get(`/svc/opportunities/${id}/apy-history?window=30d`).expect(200)).body,
      );
      expect(history.points).toHaveLength(31);
      const today = history.points[history.points.length - 1];
      expect(today).toMatchObject({ meanBps: 650, minBps: 650, maxBps: 650, samples: 3 });
      expect(history.points[0]).toMatchObject({ meanBps: null, minBps: null, samples: 0 });
      expect(history.meanBps).toBe(kamino.apyMean30dBps);
      expect(history.samples).toBe(kamino.apyMean30dSamples);
    }
    const week = ApyHistoryDocument.parse(
      (await get('/svc/opportunities/kamino/apy-history?window=7d').expect(200)).body,
    );
    expect(week.points).toHaveLength(8);
  });

  it('a venue never read: every point null with 0 samples, never 0 bps', async () => {
    const history = ApyHistoryDocument.parse(
      (await get('/svc/opportunities/drift/apy-history').expect(200)).body,
    );
    expect(history.window).toBe('30d');
    expect(history.meanBps).toBeNull();
    expect(history.points.every((point) => point.meanBps === null && point.samples === 0)).toBe(
      true,
    );
  });

  it('unknown id → 404 naming path.id; bad window → 400 naming query.window', async () => {
    const missing = await get('/svc/opportunities/svcop0000/apy-history').expect(404);
    expect(missing.body.message).toContain('path.id');
    const bad = await get('/svc/opportunities/kamino/apy-history?window=1y').expect(400);
    expect(`${bad.body.field ?? ''} ${bad.body.message}`).toContain('query.window');
  });
});
