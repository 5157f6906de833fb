import request from 'supertest';
import { startLocalnet } from '@yieldrouter/chain-beds/localnet';
import type { Localnet } from '@yieldrouter/chain-beds/localnet';
import type { Chain, Opportunity } from '@yieldrouter/schemas';
import { OpportunityList, PlanDocument } from '@yieldrouter/schemas';
import type { TestApp } from './testing/startTestApp';
import { SAMPLE_ADDRESSES, startTestApp } from './testing/startTestApp';

// Discovery's readiness flags against what a deposit plan answers, venue by venue: `depositable`
// iff the plan is `prepared`, and otherwise the plan's blockers carry `depositBlocker`. On the
// embedded defaults (nothing configured), on the beds (`pnpm localnet`'s settings: every venue
// the beds run configured) and on the beds without our Solana router's ids.

interface Answer {
  readonly venueId: string;
  readonly depositable: boolean;
  readonly depositBlocker: string | null;
  readonly status: string;
  readonly codes: readonly string[];
}

async function answers(t: TestApp, owners: Readonly<Record<Chain, string>>): Promise<Answer[]> {
  const listed = OpportunityList.parse(
    (await request(t.app).get('/api/v1/svc/opportunities?limit=200').expect(200)).body,
  ).opportunities;
  const out: Answer[] = [];
  for (const entry of listed) {
    const plan = PlanDocument.parse(
      (
        await request(t.app)
          .post('/api/v1/svc/strategies/deposit/plan')
          .send({
            opportunityId: entry.opportunityId,
            amountMicros: entry.minDepositMicros,
            owner: owners[entry.chain],
          })
          .expect(200)
      ).body,
    );
    out.push({
      venueId: entry.venueId,
      depositable: entry.depositable,
      depositBlocker: entry.depositBlocker,
      status: plan.status,
      codes: (plan.blockers ?? []).map((one) => one.code),
    });
  }
  return out;
}

/** Venues whose flags say something else than their plan did. */
const contradictions = (rows: readonly Answer[]) =>
  rows.filter((row) =>
    row.depositable
      ? row.status !== 'prepared' || row.depositBlocker !== null
      : row.status !== 'blocked' ||
        row.depositBlocker === null ||
        !row.codes.includes(row.depositBlocker),
  );

const listing = async (t: TestApp): Promise<Opportunity[]> =>
  OpportunityList.parse(
    (await request(t.app).get('/api/v1/svc/opportunities?limit=200').expect(200)).body,
  ).opportunities;

describe('on the embedded defaults', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({});
  });
  afterAll(() => t.close());

  it('no venue is depositable, each says why, and every plan agrees', async () => {
    const rows = await answers(t, SAMPLE_ADDRESSES);
    expect(contradictions(rows)).toEqual([]);
    expect(rows.filter((row) => row.depositable)).toEqual([]);
    for (const entry of await listing(t)) {
      if (entry.catalogStatus === 'vetted') {
        // Which setting, where real ids are, and how to see the flow without them.
        expect(entry.missingSettings.length).toBeGreaterThan(0);
        for (const setting of entry.missingSettings) {
          expect(entry.depositBlockedReason).toContain(setting);
        }
        expect(entry.depositBlockedReason).toContain('SVC_PROFILE=mainnet');
        expect(entry.depositBlockedReason).toContain('pnpm demo');
      } else {
        // No setting helps a venue that is only listed: the reason says so.
        expect(entry.depositBlockedReason).toMatch(/^(listed|planned) in the catalog/);
      }
      // The deprecated name keeps its meaning.
      expect(entry.readiness === 'ready').toBe(entry.catalogStatus === 'vetted');
    }
  });
});

describe('on the beds (one pnpm localnet, with and without our Solana router)', () => {
  let localnet: Localnet;
  let t: TestApp;
  let noRouter: TestApp;
  let owners: Record<Chain, string>;
  beforeAll(async () => {
    localnet = await startLocalnet();
    const { evm, solana, sui } = localnet.wallets;
    owners = { base: evm, arbitrum: evm, solana, sui };
    const { SVC_API_KEYS: _keys, ...env } = localnet.env;
    const {
      SVC_SOLANA_PROGRAM_ID: _program,
      SVC_SOLANA_YIELD_ROUTER: _router,
      SVC_SOLANA_ADAPTER_REGISTRY: _registry,
      ...withoutRouter
    } = env;
    t = await startTestApp(env);
    noRouter = await startTestApp(withoutRouter);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await noRouter?.close();
    await localnet?.stop();
  });

  it('every venue the beds run is depositable, Map chains included, and its plan prepares', async () => {
    const rows = await answers(t, owners);
    expect(contradictions(rows)).toEqual([]);
    const depositable = rows.filter((row) => row.depositable).map((row) => row.venueId);
    // The eight venues pnpm localnet configures (SVC_VENUE_IDS there); the others lack ids.
    expect(depositable.sort()).toEqual(
      ['aave-v3', 'fluid', 'kamino', 'morpho', 'navi', 'scallop', 'silo', 'suilend'].sort(),
    );
    const entries = await listing(t);
    const morpho = entries.find((entry) => entry.venueId === 'morpho');
    // A Map chain: plans prepare (the owner submits); the service does not execute beyond them.
    expect(morpho).toMatchObject({ depositable: true, writeReady: false, ready: true });
    const kamino = entries.find((entry) => entry.venueId === 'kamino');
    expect(kamino).toMatchObject({ depositable: true, writeReady: true, missingSettings: [] });
  }, 120_000);

  it('without our router, kamino has its ids but is not depositable, as its plan says', async () => {
    const rows = await answers(noRouter, owners);
    expect(contradictions(rows)).toEqual([]);
    const kamino = (await listing(noRouter)).find((entry) => entry.venueId === 'kamino');
    expect(kamino).toMatchObject({
      ready: true,
      depositable: false,
      depositBlocker: 'router_not_configured',
      missingSettings: [
        'SVC_SOLANA_PROGRAM_ID',
        'SVC_SOLANA_YIELD_ROUTER',
        'SVC_SOLANA_ADAPTER_REGISTRY',
      ],
    });
  }, 120_000);
});
