import request from 'supertest';
import { ApyRefreshResult, VenueApyTable, VenueList } from '@yieldrouter/schemas';
import type { YieldsServer } from '@yieldrouter/chain-beds/yields';
import { makeYieldsPool, startYieldsServer } from '@yieldrouter/chain-beds/yields';
import type { TestApp } from './testing/startTestApp';
import { startTestApp, testKeys } from './testing/startTestApp';

// Live APY from a DefiLlama-shaped local source: values with provenance, history, 30-day mean.
let t: TestApp;
let yields: YieldsServer;

const pools = (morphoApy: number | null) => [
  makeYieldsPool({
    pool: 'pool-morpho',
    chain: 'Base',
    project: 'morpho-blue',
    apy: morphoApy,
    apyBase: morphoApy,
    apyReward: null,
    tvlUsd: 2_500_000.5,
  }),
  makeYieldsPool({
    pool: 'pool-kamino',
    chain: 'Solana',
    project: 'kamino-lend',
    apy: 6.5,
    apyBase: 5.25,
    apyReward: 1.25,
  }),
];

beforeAll(async () => {
  yields = await startYieldsServer({ pools: pools(4.215) });
  t = await startTestApp({
    SVC_APY_BASE_URL: yields.url,
    SVC_APY_POOLS: JSON.stringify({
      morpho: 'pool-morpho',
      kamino: 'pool-kamino',
      navi: 'pool-gone',
    }),
  });
});
afterAll(async () => {
  await t.close();
  await yields.stop();
});

const refresh = async () =>
  ApyRefreshResult.parse(
    (
      await request(t.app)
        .post('/api/v1/svc/map/venues/refresh')
        .set('X-API-Key', testKeys.keeper)
        .expect(200)
    ).body,
  );
const venues = async () =>
  VenueList.parse((await request(t.app).get('/api/v1/svc/venues').expect(200)).body).venues;

describe('live APY', () => {
  it('a keeper refresh stores one reading per venue, values with provenance', async () => {
    const result = await refresh();
    expect(result).toMatchObject({ source: 'defillama', venues: 12, ok: 2, unavailable: 10 });
    const list = await venues();
    const morpho = list.find((venue) => venue.venueId === 'morpho');
    const kamino = list.find((venue) => venue.venueId === 'kamino');
    const navi = list.find((venue) => venue.venueId === 'navi');
    expect(morpho).toMatchObject({
      grossApyBps: 422,
      gross_apy_bps: 422,
      tvlUsdMicros: '2500000500000',
    });
    expect(morpho?.apy).toMatchObject({ source: 'defillama', stale: false, reason: null });
    expect(kamino?.apy).toMatchObject({ baseBps: 525, rewardBps: 125 });
    expect(navi).toMatchObject({ grossApyBps: null });
    expect(navi?.apy.reason).toBe('pool_not_found');
    expect(await t.db.apySample.count()).toBe(12);
  });

  it('the 30-day mean appears once there are enough samples, from stored history', async () => {
    expect((await venues()).find((v) => v.venueId === 'morpho')?.apyMean30dBps).toBeNull();
    yields.setPools(pools(5));
    await refresh();
    yields.setPools(pools(6));
    await refresh();
    const morpho = (await venues()).find((venue) => venue.venueId === 'morpho');
    expect(morpho?.apyMean30dSamples).toBe(3);
    expect(morpho?.apyMean30dBps).toBe(Math.round((422 + 500 + 600) / 3));
    expect(morpho?.grossApyBps).toBe(600);
  });

  it('a failing source gives null with a reason, and the mean keeps only real samples', async () => {
    yields.setFailure('garbage');
    await refresh();
    const morpho = (await venues()).find((venue) => venue.venueId === 'morpho');
    expect(morpho?.grossApyBps).toBeNull();
    expect(morpho?.apy.reason).toBe('source_bad_response');
    expect(morpho?.apyMean30dSamples).toBe(3);
    const table = VenueApyTable.parse((await request(t.app).get('/api/v1/svc/venues/apy')).body);
    expect(table.status).toBe('unavailable');
    yields.setFailure('none');
    const live = VenueList.parse(
      (await request(t.app).get('/api/v1/svc/venues?live=1').expect(200)).body,
    );
    expect(live.venues.find((venue) => venue.venueId === 'kamino')?.grossApyBps).toBe(650);
    const partial = VenueApyTable.parse((await request(t.app).get('/api/v1/svc/venues/apy')).body);
    expect(partial.status).toBe('partial');
  });

  it('an agent key cannot refresh the map', async () => {
    await request(t.app)
      .post('/api/v1/svc/map/venues/refresh')
      .set('X-API-Key', testKeys.agent)
      .expect(403);
  });
});
