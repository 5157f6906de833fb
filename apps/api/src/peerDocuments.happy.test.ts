import request from 'supertest';
import {
  ChainProfileDocument,
  MarketStatsDocument,
  NetworkDocument,
  PossibleDocument,
  TreasuryDocument,
  VenueApyTable,
} from '@yieldrouter/schemas';
import type { Opportunity } from '@yieldrouter/schemas';
import type { TestApp } from './testing/startTestApp';
import { SAMPLE_ADDRESSES, TEST_WALLET, startTestApp, testKeys } from './testing/startTestApp';

// Issue 41: the documents peer clients read, built only from configuration, enablement and the
// opportunity listing (each compared with the route it is read from), and the peer routes we do
// not offer, answered 404 NOT_OFFERED with what to use instead. All were 404 NOT_FOUND before.

const RPC = 'http://127.0.0.1:9/secret-rpc-token';
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SVC_SUI_TREASURY: SAMPLE_ADDRESSES.sui, SVC_BASE_RPC_URL: RPC });
});
afterAll(() => t?.close());

const get = (path: string) => request(t.app).get(`/api/v1/svc${path}`);
const listing = async (): Promise<Opportunity[]> =>
  (await get('/opportunities')).body.opportunities as Opportunity[];

describe('the peer documents', () => {
  it("Solana's APYs: the APY table's Solana rows, with its ETag", async () => {
    const res = await get('/solana/apys');
    expect(res.status).toBe(200);
    const table = VenueApyTable.parse(res.body);
    const all = VenueApyTable.parse((await get('/venues/apy')).body);
    expect(table.venues).toEqual(all.venues.filter((row) => row.chain === 'solana'));
    expect(table.venues.length).toBeGreaterThan(0);
    const again = await get('/solana/apys').set('If-None-Match', String(res.headers['etag']));
    expect(again.status).toBe(304);
  });

  it('treasury: the configured address and where its balance is read; unset is null with a reason', async () => {
    const doc = TreasuryDocument.parse((await get('/treasury')).body);
    const fees = (await get('/fees')).body;
    expect(doc.protocolYieldSkimBps).toBe((await get('/status')).body.protocolYieldSkimBps);
    const sui = doc.chains.find((row) => row.chain === 'sui');
    expect(sui).toMatchObject({ address: fees.treasuries.sui, unavailable: null });
    expect(sui?.balancePath).toBe(`/api/v1/svc/sui/wallet-balance?address=${SAMPLE_ADDRESSES.sui}`);
    const base = doc.chains.find((row) => row.chain === 'base');
    expect(base).toMatchObject({ address: null, balancePath: null });
    expect(base?.unavailable?.code).toBe('not_configured');
  });

  it('network: whether an RPC is set, never its URL', async () => {
    const res = await get('/network');
    const doc = NetworkDocument.parse(res.body);
    expect(JSON.stringify(res.body)).not.toContain('secret-rpc-token');
    expect(doc.chains.find((row) => row.chain === 'base')?.rpcConfigured).toBe(true);
    expect(doc.chains.find((row) => row.chain === 'arbitrum')?.rpcConfigured).toBe(false);
    const enablement = (await get('/enablement')).body.chains as { executionMode: string }[];
    expect(doc.chains.map((row) => row.executionMode)).toEqual(
      enablement.map((row) => row.executionMode),
    );
  });

  it('market stats: counts and sums of the listing, over known values only', async () => {
    const doc = MarketStatsDocument.parse((await get('/markets/stats')).body);
    const opportunities = await listing();
    expect(doc.total.opportunities).toBe(opportunities.length);
    expect(doc.total.ready).toBe(opportunities.filter((entry) => entry.ready).length);
    const tvls = opportunities.filter((entry) => entry.tvlUsdMicros !== null);
    expect(doc.total.tvlKnown).toBe(tvls.length);
    expect(doc.total.tvlUsdMicros).toBe(
      tvls.length === 0
        ? null
        : tvls.reduce((sum, entry) => sum + BigInt(entry.tvlUsdMicros ?? 0), 0n).toString(),
    );
    const apys = opportunities.flatMap((entry) =>
      entry.grossApyBps === null ? [] : [entry.grossApyBps],
    );
    expect(doc.total.grossApy.known).toBe(apys.length);
    expect(doc.total.grossApy.maxBps).toBe(apys.length === 0 ? null : Math.max(...apys));
    expect(doc.chains.reduce((sum, row) => sum + row.opportunities, 0)).toBe(opportunities.length);
  });

  it('possible: per chain what prepares now, from the listing flags', async () => {
    const doc = PossibleDocument.parse((await get('/possible')).body);
    const opportunities = await listing();
    for (const row of doc.chains) {
      const listed = opportunities.filter((entry) => entry.chain === row.chain);
      const deposit = row.actions.find((action) => action.action === 'deposit');
      expect(deposit?.possible).toBe(listed.some((entry) => entry.depositable));
      // A reason exactly when it is not possible.
      expect(deposit?.reason === null).toBe(deposit?.possible);
      expect(row.readyOpportunities).toEqual(
        listed.filter((entry) => entry.ready).map((entry) => entry.opportunityId),
      );
    }
    const base = doc.chains.find((row) => row.chain === 'base');
    expect(base?.actions.find((action) => action.action === 'autopilot')).toMatchObject({
      possible: false,
    });
  });

  it.each(['base', 'arbitrum'] as const)(
    '%s: enablement, network, stats and venues',
    async (chain) => {
      const doc = ChainProfileDocument.parse((await get(`/${chain}`)).body);
      expect(doc.enablement).toEqual((await get(`/${chain}/enablement`)).body);
      const listed = (await listing()).filter((entry) => entry.chain === chain);
      expect(doc.venues.map((venue) => venue.opportunityId)).toEqual(
        listed.map((entry) => entry.opportunityId),
      );
      expect(doc.stats.opportunities).toBe(listed.length);
    },
  );
});

describe('peer routes we do not offer: 404 NOT_OFFERED naming what to use', () => {
  it.each([
    ['get', `/api/v1/wallets/${TEST_WALLET}/strategies`, '/api/v1/svc/strategies'],
    ['post', `/api/wallets/${TEST_WALLET}/strategies`, '/guardrails'],
    ['delete', `/api/v1/wallets/${TEST_WALLET}/strategies/s1`, '/api/v1/svc/strategies'],
    ['get', '/api/v1/svc/vaults', '/api/v1/svc/strategies/deposit/plan'],
    ['post', '/api/v1/svc/vaults/v1/deploy', '/api/v1/svc/strategies/deposit/plan'],
    ['put', `/api/v1/wallets/${TEST_WALLET}/profile`, 'no display names'],
  ] as const)('%s %s', async (method, path, instead) => {
    const res = await request(t.app)[method](path).set('X-API-Key', testKeys.owner).send({});
    expect([res.status, res.body.code]).toEqual([404, 'NOT_OFFERED']);
    expect(res.body.message).toContain(instead);
    expect(res.body.message).not.toContain(TEST_WALLET);
  });

  it('refuses key material in such a path rather than answering it', async () => {
    const key = `0x${'3f'.repeat(32)}`;
    const res = await request(t.app).get(`/api/v1/svc/vaults/${key}`);
    expect(res.body.code).toBe('KEY_MATERIAL_REFUSED');
    expect(JSON.stringify(res.body)).not.toContain(key.slice(2));
  });
});
