import request from 'supertest';
import {
  FormList,
  Opportunity,
  OpportunityList,
  StrategyList,
  VenueApyTable,
  VenueList,
  venueStrategies,
} from '@yieldrouter/schemas';
import { closedPortUrl } from '@yieldrouter/chain-beds/faults';
import type { TestApp } from './testing/startTestApp';
import { startTestApp } from './testing/startTestApp';

// Discovery with no reachable APY source: every venue is listed, every APY is null with a reason.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    SVC_APY_BASE_URL: await closedPortUrl(),
    SVC_APY_POOLS: JSON.stringify({ morpho: 'pool-morpho-usdc', kamino: 'pool-kamino-usdc' }),
    SVC_VENUE_IDS: JSON.stringify({
      morpho: { vault: '0x52908400098527886E0F7030069857D2E4169EE7' },
    }),
  });
});
afterAll(() => t.close());

const get = (path: string) => request(t.app).get(`/api/v1${path}`);

describe('venues and opportunities', () => {
  it('lists venues on all four chains, Base and Arbitrum never write-ready', async () => {
    const body = VenueList.parse((await get('/svc/venues').expect(200)).body);
    const chains = new Set(body.venues.map((venue) => venue.chain));
    expect(chains).toEqual(new Set(['sui', 'solana', 'base', 'arbitrum']));
    for (const venue of body.venues) {
      expect(venue.opportunityId).toMatch(/^svcop[0-9a-f]{24}$/);
      expect(venue.strategyId).toBe(venue.venueId);
      expect(venue.venueId).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(venue.grossApyBps).toBeNull();
      expect(venue.gross_apy_bps).toBeNull();
      expect(venue.apy.reason).not.toBeNull();
      if (venue.chain === 'base' || venue.chain === 'arbitrum')
        expect(venue.writeReady).toBe(false);
    }
    expect(new Set(body.venues.map((venue) => venue.venueId)).size).toBe(body.venues.length);
  });

  it('readiness follows configuration: ids present → ready, missing → listed with missingIds', async () => {
    const body = VenueList.parse((await get('/svc/venues').expect(200)).body);
    const morpho = body.venues.find((venue) => venue.venueId === 'morpho');
    const aave = body.venues.find((venue) => venue.venueId === 'aave-v3');
    expect(morpho).toMatchObject({ ready: true, missingIds: [], writeReady: false });
    expect(aave).toMatchObject({ ready: false, missingIds: ['pool', 'aToken'] });
  });

  it('filters by chain and refuses unknown chains and fields', async () => {
    const body = VenueList.parse((await get('/svc/venues?chain=solana').expect(200)).body);
    expect(body.venues.every((venue) => venue.chain === 'solana')).toBe(true);
    expect((await get('/svc/venues?chain=ethereum').expect(400)).body.field).toBe('query.chain');
    expect((await get('/svc/venues?sort=apy').expect(400)).body.code).toBe('BAD_REQUEST');
  });

  it('live=1 tries the source and stores unavailable readings with reasons, never numbers', async () => {
    const body = VenueList.parse((await get('/svc/venues?live=1').expect(200)).body);
    expect(body.live).toBe(true);
    const morpho = body.venues.find((venue) => venue.venueId === 'morpho');
    const navi = body.venues.find((venue) => venue.venueId === 'navi');
    expect(morpho?.grossApyBps).toBeNull();
    expect(morpho?.apy.reason).toBe('source_error');
    expect(navi?.apy.reason).toBe('source_not_configured');
    const samples = await t.db.apySample.findMany({ where: { venueId: 'morpho' } });
    expect(samples.length).toBeGreaterThanOrEqual(1);
    expect(samples.every((sample) => sample.apyBps === null && sample.reason)).toBe(true);
  });

  it('the APY table says unavailable with nulls when nothing could be read', async () => {
    const body = VenueApyTable.parse((await get('/svc/venues/apy').expect(200)).body);
    expect(body.status).toBe('unavailable');
    expect(body.venues.every((venue) => venue.grossApyBps === null)).toBe(true);
  });

  it('opportunity ids are permanent across re-seeding', async () => {
    const before = OpportunityList.parse((await get('/svc/opportunities').expect(200)).body);
    const { seedVenueCatalog } = await import('@yieldrouter/engine');
    await seedVenueCatalog(t.db);
    const after = OpportunityList.parse((await get('/svc/opportunities').expect(200)).body);
    expect(after.opportunities.map((entry) => entry.opportunityId)).toEqual(
      before.opportunities.map((entry) => entry.opportunityId),
    );
  });

  it('auto-yield lists only ready venues; map lists only Base and Arbitrum', async () => {
    const auto = VenueList.parse((await get('/auto-yield/venues').expect(200)).body);
    expect(auto.venues.map((venue) => venue.venueId)).toEqual(['morpho']);
    const map = VenueList.parse((await get('/svc/map/venues').expect(200)).body);
    expect(new Set(map.venues.map((venue) => venue.chain))).toEqual(new Set(['base', 'arbitrum']));
  });
});

describe('strategies and legacy forms', () => {
  it('lists venues plus the featured autopilot strategy', async () => {
    const body = StrategyList.parse((await get('/svc/strategies').expect(200)).body);
    expect(body.featured.strategyId).toBe('svc-autopilot-top-30d-monthly');
    expect(body.featured.switchThresholdBps).toBe(700);
    // SPEC (issue 41): the autopilot strategy is in the list, after the venues.
    expect(body.strategies.at(-1)).toEqual(body.featured);
    expect(body.count).toBe(venueStrategies(body).length + 1);
    const priority = StrategyList.parse((await get('/svc/strategies/priority').expect(200)).body);
    const ranks = venueStrategies(priority).map((entry) => [entry.wave, entry.priority]);
    expect(ranks).toEqual([...ranks].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!));
    // A filter it does not fit leaves it out; v1 clients' ready/wave/live filters apply.
    const base = StrategyList.parse((await get('/svc/strategies?chain=base').expect(200)).body);
    expect(base.strategies.some((entry) => 'kind' in entry)).toBe(false);
    const ready = StrategyList.parse(
      (await get('/svc/strategies?ready=1&live=1').expect(200)).body,
    );
    expect(venueStrategies(ready).every((entry) => entry.ready)).toBe(true);
    expect(ready.strategies.at(-1)).toMatchObject({ kind: 'autopilot' });
    const wave = venueStrategies(ready)[0]?.wave ?? 1;
    const inWave = StrategyList.parse((await get(`/svc/strategies?wave=${wave}`).expect(200)).body);
    expect(inWave.strategies.every((entry) => 'wave' in entry && entry.wave === wave)).toBe(true);
    const forms = FormList.parse((await get('/svc/forms?ready=1&wave=1').expect(200)).body);
    expect(forms.forms.every((entry) => entry.ready && entry.wave === 1)).toBe(true);
  });

  it('finds one strategy by bare id, form- alias or opportunity id; unknown is 404', async () => {
    const bare = Opportunity.parse((await get('/svc/strategies/kamino').expect(200)).body);
    const alias = Opportunity.parse((await get('/svc/strategies/form-kamino').expect(200)).body);
    const byOpportunity = Opportunity.parse(
      (await get(`/svc/strategies/${bare.opportunityId}`).expect(200)).body,
    );
    expect(alias).toEqual(bare);
    expect(byOpportunity).toEqual(bare);
    const unknown = await get('/svc/strategies/not-a-venue').expect(404);
    expect(unknown.body).toMatchObject({ code: 'strategy_unknown', field: 'path.id' });
    await get('/svc/strategies/svc-autopilot-top-30d-monthly').expect(200);
  });

  it('legacy forms: list, ready form, FORM_NOT_FOUND, FORM_NOT_READY, MISSING_FORM_ID', async () => {
    const list = FormList.parse((await get('/svc/forms').expect(200)).body);
    expect(list.deprecated).toBe(true);
    FormList.parse((await get('/svc/forms/priority').expect(200)).body);
    Opportunity.parse((await get('/svc/forms/form-morpho').expect(200)).body);
    expect((await get('/svc/forms/form-nothing').expect(404)).body.code).toBe('FORM_NOT_FOUND');
    expect((await get('/svc/forms/navi').expect(409)).body.code).toBe('FORM_NOT_READY');
    expect((await get('/svc/forms/form-').expect(400)).body.code).toBe('MISSING_FORM_ID');
  });

  it('map refresh needs an owner or keeper key', async () => {
    await request(t.app).post('/api/v1/svc/map/venues/refresh').expect(401);
  });
});
