import request from 'supertest';
import type { Address } from 'viem';
import { PlanDocument } from '@yieldrouter/schemas';
import { startCctpBed } from '@yieldrouter/chain-beds/bridges';
import type { CctpBed } from '@yieldrouter/chain-beds/bridges';
import { anvilAccount } from '@yieldrouter/chain-beds/evm';
import type { TestApp } from './testing/startTestApp';
import { startTestApp, testKeys } from './testing/startTestApp';

// A cross-chain deposit (issue 18, item 5) on the two anvils: the owner's USDC is on Base, the
// venue (fluid, the bed's ERC-4626 vault) on Arbitrum. Without `bridge: true` nothing bridges
// silently: the plan is blocked and names the bridge plan to run first.
const owner = anvilAccount(5);
const ownerKey = 'test-xchain-owner-0123456789abcdef';
const FEE_RECIPIENT: Address = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720';

let cctp: CctpBed;
let t: TestApp;

beforeAll(async () => {
  cctp = await startCctpBed({ feeRecipient: FEE_RECIPIENT });
  await cctp.base.fixtures.mintUsdc(owner.address, 500_000_000n);
  t = await startTestApp({
    ...cctp.settings,
    SVC_CCTP_TIMEOUT_MS: '1000',
    SVC_VENUE_IDS: JSON.stringify({ fluid: { vault: cctp.arbitrum.fixtures.vault } }),
    SVC_API_KEYS: JSON.stringify([
      { key: ownerKey, role: 'owner', wallets: [owner.address] },
      { key: testKeys.keeper, role: 'keeper', wallets: ['*'] },
    ]),
  });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await cctp?.stop();
});

const depositPlan = (body: Record<string, unknown>) =>
  request(t.app)
    .post('/api/v1/svc/strategies/deposit/plan')
    .send({ strategyId: 'fluid', owner: owner.address, amountMicros: '25000000', ...body });
const route = (body: Record<string, unknown>) =>
  request(t.app)
    .post(`/api/v1/wallets/${owner.address}/route`)
    .set('X-API-Key', ownerKey)
    .send({ amountMicros: '25000000', token: 'USDC', chain: 'arbitrum', stake: true, ...body });

/** What the books hold for the owner, and the journal entries of a plan. */
const booksOf = async (planId: string | undefined) => ({
  accounts: await t.db.prisma.ledgerAccount.count({ where: { wallet: owner.address } }),
  entries: await t.db.prisma.journalEntry.count({ where: { planId: planId ?? '' } }),
});

const theBridge = {
  sourceChain: 'base',
  destChain: 'arbitrum',
  amountMicros: '25000000',
  sourceAddress: owner.address,
  destinationAddress: owner.address,
};

describe('cross-chain deposit without bridge: blocked, naming the bridge plan', () => {
  it.each([
    ['deposit plan', () => depositPlan({ sourceChain: 'base' })],
    ['route', () => route({ sourceChain: 'base' })],
    [
      'route with autoBridge (a route never bridges)',
      () => route({ sourceChain: 'base', autoBridge: true }),
    ],
  ])('%s: bridge_required with the route and exact body; nothing moves', async (_, send) => {
    const res = await send().expect(200);
    const plan = PlanDocument.parse(res.body);
    expect(plan.status).toBe('blocked');
    expect(plan.ownerMustSign).toBe(false);
    const found = plan.blockers?.find((entry) => entry.code === 'bridge_required');
    expect(found?.details).toMatchObject({ route: 'POST /api/v1/svc/bridge/plan', ...theBridge });
    expect(JSON.parse(found?.details?.['body'] ?? '{}')).toEqual(theBridge);
    expect(await booksOf(plan.planId)).toEqual({ accounts: 0, entries: 0 });
    // The body it names is one the bridge plan takes.
    const bridge = await request(t.app).post('/api/v1/svc/bridge/plan').send(theBridge).expect(200);
    expect(bridge.body).toMatchObject({ kind: 'bridge', status: 'prepared' });
  });

  it('the funds on the venue chain already: an ordinary deposit (bridge: true is ignored)', async () => {
    const res = await depositPlan({ sourceChain: 'arbitrum', bridge: true }).expect(200);
    const plan = PlanDocument.parse(res.body);
    expect(plan).toMatchObject({ status: 'prepared', chain: 'arbitrum' });
    expect(plan.legs?.map((leg) => leg.action)).not.toContain('burn');
  });

  it('a source address that is not one of the source chain: 400 naming it', async () => {
    const res = await depositPlan({ sourceChain: 'base', sourceAddress: 'nope' }).expect(400);
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', field: 'body.sourceAddress' });
  });
});
