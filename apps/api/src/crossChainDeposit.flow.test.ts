import request from 'supertest';
import type { Address, Hex } from 'viem';
import { readAccountBalance, verifyLedger } from '@yieldrouter/ledger';
import { DepositPlanDocument, PlanDocument, StoredPlanDocument } from '@yieldrouter/schemas';
import { startCctpBed } from '@yieldrouter/chain-beds/bridges';
import type { CctpBed } from '@yieldrouter/chain-beds/bridges';
import { anvilAccount } from '@yieldrouter/chain-beds/evm';
import type { TestApp } from './testing/startTestApp';
import { startTestApp } from './testing/startTestApp';
import {
  crossChainDepositHelpers,
  crossChainDepositSettings,
} from './testing/crossChainDepositHelpers';

// A cross-chain deposit (issue 18, item 5) on the two anvils: the owner's USDC is on Base, the
// venue (fluid, the bed's ERC-4626 vault) on Arbitrum. Without `bridge: true` nothing bridges
// silently: the plan is blocked and names the bridge plan to run first. With it, one plan: the
// bridge legs on Base, then the deposit legs on Arbitrum for what the bridge delivers at least;
// the deposit settles only once the delivery credited Arbitrum.
const owner = anvilAccount(5);
const ownerKey = 'test-xchain-owner-0123456789abcdef';
const FEE_RECIPIENT: Address = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720';

let cctp: CctpBed;
let t: TestApp;

beforeAll(async () => {
  cctp = await startCctpBed({ feeRecipient: FEE_RECIPIENT });
  await cctp.base.fixtures.mintUsdc(owner.address, 500_000_000n);
  t = await startTestApp(
    crossChainDepositSettings(cctp, { address: owner.address, key: ownerKey }),
  );
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
  accounts: await t.db.ledgerAccount.count({ where: { wallet: owner.address } }),
  entries: await t.db.journalEntry.count({ where: { planId: planId ?? '' } }),
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
      'route without stake, even with autoBridge (only a stake route bridges)',
      () => route({ sourceChain: 'base', autoBridge: true, stake: false }),
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

  it.each([
    ['deposit plan', () => depositPlan({ sourceChain: 'base' })],
    ['route', () => route({ sourceChain: 'base' })],
  ])(
    '%s: the guardrails are named with the bridge, before any bridge fee is paid',
    async (_, send) => {
      // The owner's guardrails forbid the venue's chain: bridging first would pay the bridge's
      // fees for a deposit that is then refused, so the blocked plan says both at once.
      const guardrails = (body: object) =>
        request(t.app)
          .put(`/api/v1/wallets/${owner.address}/guardrails`)
          .set('X-API-Key', ownerKey)
          .send(body)
          .expect(200);
      await guardrails({ allowedChains: ['base'] });
      try {
        const plan = PlanDocument.parse((await send().expect(200)).body);
        expect(plan.status).toBe('blocked');
        expect(plan.blockers?.map((entry) => entry.code)).toEqual(
          expect.arrayContaining(['bridge_required', 'guardrail_chain_not_allowed']),
        );
      } finally {
        await guardrails({});
      }
    },
  );

  it('the funds on the venue chain already: an ordinary deposit (bridge: true is ignored)', async () => {
    const res = await depositPlan({ sourceChain: 'arbitrum', bridge: true }).expect(200);
    const plan = PlanDocument.parse(res.body);
    expect(plan).toMatchObject({ status: 'prepared', chain: 'arbitrum' });
    expect(plan.legs?.map((leg) => leg.action)).not.toContain('burn');
  });

  it.each([
    ['deposit plan', depositPlan],
    ['route', route],
  ])('%s: a source address that is not one of the source chain: 400 naming it', async (_, send) => {
    const res = await send({ sourceChain: 'base', sourceAddress: 'nope' }).expect(400);
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', field: 'body.sourceAddress' });
  });
});

const { balance, send, settle, deliver, activityOf, positions } = crossChainDepositHelpers(
  () => t,
  () => cctp,
  owner,
);

describe('cross-chain deposit with bridge: true (Base → Arbitrum, fluid)', () => {
  it('bridge legs, then deposit legs under one planId; the deposit waits for the delivery', async () => {
    const res = await depositPlan({ sourceChain: 'base', bridge: true }).expect(200);
    const plan = DepositPlanDocument.parse(res.body);
    expect(plan).toMatchObject({
      kind: 'deposit',
      status: 'prepared',
      ownerMustSign: true,
      chain: 'arbitrum',
      venueId: 'fluid',
      amountMicros: '25000000',
      // The bridge's fees: 10 bps service fee, no rail fee on a standard transfer.
      feeMicros: '25000',
      depositMicros: '24975000',
      bridge: {
        sourceChain: 'base',
        destChain: 'arbitrum',
        sourceAddress: owner.address,
        destinationAddress: owner.address,
        burnAmountMicros: '24975000',
        minReceivedMicros: '24975000',
      },
    });
    const legs = plan.legs ?? [];
    expect(legs.map((leg) => [leg.action, leg['chain'], leg.settles])).toEqual([
      ['transfer', 'base', true],
      ['approve', 'base', false],
      ['burn', 'base', true],
      ['approve', 'arbitrum', false],
      ['deposit', 'arbitrum', true],
    ]);
    expect(legs[4]?.amountMicros).toBe('24975000');
    // As stored: the same legs on the same chains.
    const stored = StoredPlanDocument.parse(
      (await request(t.app).get(`/api/v1/svc/plans/${plan.planId}`).expect(200)).body,
    );
    expect(stored.legs.map((leg) => [leg.action, leg.chain])).toEqual(
      legs.map((leg) => [leg.action, leg['chain']]),
    );
    // Prepared: nothing on the books yet.
    expect(await t.db.journalEntry.count({ where: { planId: plan.planId ?? '' } })).toBe(0);

    // The owner signs the bridge legs on Base; the fee and the burn settle from their receipts.
    const hashes: Hex[] = [];
    for (const leg of legs.slice(0, 3)) hashes.push(await send('base', leg));
    await settle(plan.planId, 0, hashes[0] as Hex).expect(200);
    const burned = await settle(plan.planId, 2, hashes[2] as Hex).expect(200);
    expect(burned.body).toMatchObject({ status: 'confirmed' });
    expect(await balance('base', 'in_flight')).toBe(24_975_000n);

    // The deposit leg before the delivery: 409, nothing recorded.
    const early = await settle(plan.planId, 4, `0x${'ab'.repeat(32)}`).expect(409);
    expect(early.body).toMatchObject({ code: 'BRIDGE_NOT_DELIVERED' });
    expect(await balance('arbitrum', 'liquid')).toBe(0n);

    // Attested; the mint is relayed and reported: Arbitrum liquid is credited.
    const next = await deliver({ planId: plan.planId }).expect(200);
    const mintTx = await send('arbitrum', next.body.mintLeg);
    await deliver({ planId: plan.planId, destTxId: mintTx }).expect(200);
    expect(await balance('base', 'in_flight')).toBe(0n);
    expect(await balance('arbitrum', 'liquid')).toBe(24_975_000n);

    // Now the deposit: signed on Arbitrum, settled from its receipt out of liquid into the venue.
    await send('arbitrum', legs[3]);
    const depositTx = await send('arbitrum', legs[4]);
    const deposited = await settle(plan.planId, 4, depositTx).expect(200);
    expect(deposited.body).toMatchObject({ status: 'confirmed' });
    expect(await balance('arbitrum', 'liquid')).toBe(0n);
    const staked = await t.db.ledgerAccount.findFirst({
      where: { wallet: owner.address, chain: 'arbitrum', bucket: { startsWith: 'staked:' } },
    });
    expect(staked?.balanceMicros).toBe(24_975_000n);
    expect(await readAccountBalance(t.db, { system: 'fees:protocol' })).toBe(25_000n);

    // Activity: the bridge rows, then the deposit row, under the plan.
    expect(await activityOf(plan.planId)).toEqual([
      [0, 'bridge', 'base', 'confirmed'],
      [2, 'bridge', 'base', 'confirmed'],
      [4, 'deposit', 'arbitrum', 'confirmed'],
    ]);
    // The cost basis is what the bridge delivered, net of its fees: ROI is never overstated.
    expect(await positions()).toMatchObject([
      { chain: 'arbitrum', venueId: 'fluid', depositedMicros: '24975000' },
    ]);
    expect((await verifyLedger(t.db)).ok).toBe(true);
  });

  it('a delivery short of the deposit (not CCTP, but be safe): 409, nothing moves', async () => {
    const plan = DepositPlanDocument.parse(
      (await depositPlan({ sourceChain: 'base', bridge: true }).expect(200)).body,
    );
    // A delivery recorded for less than the deposit leg deposits.
    await t.db.$executeRaw`
      UPDATE bridge_transfers SET mint_tx_id = ${`0x${'cd'.repeat(32)}`}, message_nonce = '1',
             delivered_micros = 1000000, delivered_at = now()
       WHERE plan_id = ${plan.planId}`;
    const refused = await settle(plan.planId, 4, `0x${'ef'.repeat(32)}`).expect(409);
    expect(refused.body).toMatchObject({ code: 'BRIDGE_NOT_DELIVERED' });
    expect(refused.body.message).toContain('less than');
    expect(await t.db.journalEntry.count({ where: { planId: plan.planId ?? '' } })).toBe(0);
  });

  it('a route with stake and bridge: true: the same legs; nothing reserved; 409 before delivery', async () => {
    const res = await route({ sourceChain: 'base', bridge: true })
      .set('Idempotency-Key', 'xchain-route-1')
      .expect(200);
    const plan = DepositPlanDocument.parse(res.body);
    expect(plan).toMatchObject({
      kind: 'route',
      status: 'prepared',
      chain: 'arbitrum',
      venueId: 'fluid',
      pendingInMicros: '0',
      depositMicros: '24975000',
      bridge: { sourceChain: 'base', destChain: 'arbitrum', minReceivedMicros: '24975000' },
    });
    expect(plan.legs?.map((leg) => [leg.action, leg['chain']])).toEqual([
      ['transfer', 'base'],
      ['approve', 'base'],
      ['burn', 'base'],
      ['approve', 'arbitrum'],
      ['deposit', 'arbitrum'],
    ]);
    expect(await t.db.journalEntry.count({ where: { planId: plan.planId ?? '' } })).toBe(0);
    const early = await settle(plan.planId, 4, `0x${'12'.repeat(32)}`).expect(409);
    expect(early.body).toMatchObject({ code: 'BRIDGE_NOT_DELIVERED' });
  });

  it.each([
    ['deposit plan', depositPlan],
    ['route', route],
  ])(
    "%s: a source address that is not the owner's: refused (422), nothing stored",
    async (_, send) => {
      const before = await t.db.plan.count();
      const res = await send({
        sourceChain: 'base',
        bridge: true,
        sourceAddress: anvilAccount(6).address,
      }).expect(422);
      expect(res.body).toMatchObject({
        code: 'BRIDGE_DESTINATION_NOT_OWNER',
        field: 'body.sourceAddress',
      });
      expect(await t.db.plan.count()).toBe(before);
    },
  );
});

// The deposit plan's case above, on the route (last: the route reserves its amount in the books).
describe('cross-chain route with the funds on its chain already', () => {
  it('the funds on the route chain already: an ordinary route (bridge: true is ignored)', async () => {
    const res = await route({ sourceChain: 'arbitrum', bridge: true }).expect(200);
    const plan = DepositPlanDocument.parse(res.body);
    expect(plan).toMatchObject({
      status: 'prepared',
      chain: 'arbitrum',
      pendingInMicros: '25000000',
    });
    expect(plan.legs?.map((leg) => leg.action)).not.toContain('burn');
    expect(plan.bridge).toBeUndefined();
  });
});
