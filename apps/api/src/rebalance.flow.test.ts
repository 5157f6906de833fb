import request from 'supertest';
import type { Keypair } from '@solana/web3.js';
import type { SolanaBed, SolanaJupiterLend } from '@yieldrouter/chain-beds/solana';
import { verifyLedger } from '@yieldrouter/ledger';
import type { PlanDocument } from '@yieldrouter/schemas';
import { RebalancePlanDocument } from '@yieldrouter/schemas';
import type { TestApp } from './testing/startTestApp';
import type { SolanaRouterApp } from './testing/solanaRouterApp';
import {
  settledPlan,
  signAndExecuteLeg,
  stakedInVenue,
  stakedKaminoOwner,
  startSolanaRouterApp,
  walletPosition,
} from './testing/solanaRouterApp';
import { testKeys } from './testing/startTestApp';

// Rebalance on the Solana bed: our router program with two real venues' stand-ins registered,
// kamino (klend) and jupiter-lend. The owner stakes in kamino, asks to move part of it to
// jupiter-lend, signs and executes both legs; the keeper's settlement watch settles each from its
// receipt, and the books move staked:kamino → pending_in → staked:jupiter-lend only as the legs
// settle.

let bed: SolanaRouterApp;
let solana: SolanaBed;
let second: SolanaJupiterLend;
let t: TestApp;
beforeAll(async () => {
  bed = await startSolanaRouterApp({ secondVenue: true });
  ({ solana, t } = bed);
  if (!bed.second) throw new Error('no second venue');
  second = bed.second;
});
afterAll(async () => {
  await bed?.close();
});

const rebalance = (wallet: string, body: object, apiKey: string = testKeys.owner) =>
  request(t.app).post(`/api/v1/wallets/${wallet}/rebalance`).set('X-API-Key', apiKey).send(body);
/** The request every case here makes: kamino → jupiter-lend. */
const kaminoToJupiter = (amountMicros: string) => ({
  fromOpportunityId: 'kamino',
  toOpportunityId: 'jupiter-lend',
  amountMicros,
});
const position = (wallet: string) => walletPosition(t, wallet);
const stakedIn = (wallet: string, venueId: string) => stakedInVenue(t, wallet, venueId);

/** The owner signs leg `index` of the plan; the API broadcasts it (execute). */
const signAndExecute = async (plan: PlanDocument, index: number, owner: Keypair) =>
  (await signAndExecuteLeg(t, plan, owner, index)).txId;
/** Waits for the keeper's settlement watch to settle leg `index`. */
const settled = (planId: string, index: number) => settledPlan(t, planId, index);

/** An owner with `micros` staked in kamino, settled from its receipt. */
const stakedOwner = (micros: bigint) => stakedKaminoOwner(bed, micros);

it('moves staked from one venue to another only as each leg settles; the books verify', async () => {
  const owner = await stakedOwner(20_000_000n);
  const wallet = owner.publicKey.toBase58();
  expect(await stakedIn(wallet, 'kamino')).toBe('20000000');

  const answer = await rebalance(wallet, kaminoToJupiter('12000000')).expect(200);
  const plan = RebalancePlanDocument.parse(answer.body);
  expect(plan).toMatchObject({
    kind: 'rebalance',
    status: 'prepared',
    submitted: false,
    ownerMustSign: true,
    chain: 'solana',
    amountMicros: '12000000',
    feeMicros: '0',
    fromVenueId: 'kamino',
    toVenueId: 'jupiter-lend',
    withinChainOnly: true,
    feeLines: [{ kind: 'principal_fee', bps: 0, amountMicros: '0', payer: 'owner' }],
  });
  expect(plan.legs?.map((leg) => [leg.index, leg.action, leg.settles])).toEqual([
    [0, 'withdraw', true],
    [1, 'deposit', true],
  ]);
  // A prepared plan moves nothing.
  expect(await position(wallet)).toMatchObject({ stakedMicros: '20000000', pendingInMicros: '0' });

  // The withdraw leg: staked:kamino → pending_in (klend redeems 12 cUSDC at its rate of one).
  const out = await signAndExecute(plan, 0, owner);
  expect(solana.transaction(out)?.logMessages).toContain(
    `Program log: svc:${plan.planId} withdraw_from_venue shares=12000000`,
  );
  await settled(plan.planId ?? '', 0);
  expect(await stakedIn(wallet, 'kamino')).toBe('8000000');
  expect(await stakedIn(wallet, 'jupiter-lend')).toBe('0');
  expect(await position(wallet)).toMatchObject({ pendingInMicros: '12000000' });
  expect((await verifyLedger(t.db)).problems).toEqual([]);

  // The deposit leg: pending_in → staked:jupiter-lend (jlUSDC at its price of one).
  await signAndExecute(plan, 1, owner);
  const done = await settled(plan.planId ?? '', 1);
  expect(done.legs.map((leg) => [leg.status, leg.settledAmountMicros])).toEqual([
    ['confirmed', '12000000'],
    ['confirmed', '12000000'],
  ]);
  expect(await stakedIn(wallet, 'kamino')).toBe('8000000');
  expect(await stakedIn(wallet, 'jupiter-lend')).toBe('12000000');
  expect(await position(wallet)).toMatchObject({ stakedMicros: '20000000', pendingInMicros: '0' });
  expect(solana.tokenBalance(second.fTokenMint, owner.publicKey)).toBe(12_000_000n);
  expect((await verifyLedger(t.db)).problems).toEqual([]);

  // "all": the rest of kamino, by the same path.
  const rest = RebalancePlanDocument.parse(
    (await rebalance(wallet, kaminoToJupiter('all')).expect(200)).body,
  );
  expect(rest.amountMicros).toBe('8000000');
  await signAndExecute(rest, 0, owner);
  await settled(rest.planId ?? '', 0);
  await signAndExecute(rest, 1, owner);
  await settled(rest.planId ?? '', 1);
  expect(await stakedIn(wallet, 'kamino')).toBe('0');
  expect(await stakedIn(wallet, 'jupiter-lend')).toBe('20000000');
  expect((await verifyLedger(t.db)).problems).toEqual([]);
});

it('a deposit leg whose transaction lands first waits for the withdraw leg', async () => {
  const owner = await stakedOwner(10_000_000n);
  solana.mintUsdc(owner.publicKey, 4_000_000n);
  const wallet = owner.publicKey.toBase58();
  const plan = RebalancePlanDocument.parse(
    (await rebalance(wallet, kaminoToJupiter('4000000')).expect(200)).body,
  );
  const into = await signAndExecute(plan, 1, owner);
  const early = await request(t.app)
    .post(`/api/v1/svc/plans/${plan.planId}/legs/1/settle`)
    .set('X-API-Key', testKeys.owner)
    .send({ txId: into })
    .expect(200);
  expect(early.body).toMatchObject({ status: 'pending' });
  expect(await stakedIn(wallet, 'jupiter-lend')).toBe('0');
  await signAndExecute(plan, 0, owner);
  await settled(plan.planId ?? '', 0);
  await settled(plan.planId ?? '', 1);
  expect(await stakedIn(wallet, 'kamino')).toBe('6000000');
  expect(await stakedIn(wallet, 'jupiter-lend')).toBe('4000000');
  expect(await position(wallet)).toMatchObject({ pendingInMicros: '0' });
  expect((await verifyLedger(t.db)).problems).toEqual([]);
});

describe('bad input: 4xx {code, message, field}, nothing stored', () => {
  let wallet: string;
  beforeAll(async () => {
    wallet = (await stakedOwner(5_000_000n)).publicKey.toBase58();
  });

  it.each([
    [
      { fromOpportunityId: 'kamino', toOpportunityId: 'form-kamino', amountMicros: '1' },
      400,
      'BAD_REQUEST',
      'body.toOpportunityId',
    ],
    [
      { fromOpportunityId: 'kamino', toOpportunityId: 'morpho', amountMicros: '1000000' },
      422,
      'CROSS_CHAIN_REBALANCE',
      'body.toOpportunityId',
    ],
    [kaminoToJupiter('5000001'), 422, 'INSUFFICIENT_STAKED', 'body.amountMicros'],
    [
      { fromOpportunityId: 'jupiter-lend', toOpportunityId: 'kamino', amountMicros: 'all' },
      422,
      'INSUFFICIENT_STAKED',
      'body.amountMicros',
    ],
    [
      { fromOpportunityId: 'nope', toOpportunityId: 'jupiter-lend', amountMicros: '1' },
      404,
      'strategy_unknown',
      'body.fromOpportunityId',
    ],
    [
      { fromOpportunityId: 'kamino', toOpportunityId: 'nope', amountMicros: '1' },
      404,
      'strategy_unknown',
      'body.toOpportunityId',
    ],
    [kaminoToJupiter('-1'), 400, 'BAD_REQUEST', 'body.amountMicros'],
    [kaminoToJupiter('1.5'), 400, 'BAD_REQUEST', 'body.amountMicros'],
    [
      { fromOpportunityId: 'kamino', toOpportunityId: 'jupiter-lend', amountMicros: 1.5 },
      400,
      'BAD_REQUEST',
      'body.amountMicros',
    ],
    [kaminoToJupiter('0'), 400, 'BAD_REQUEST', 'body.amountMicros'],
    [kaminoToJupiter('half'), 400, 'BAD_REQUEST', 'body.amountMicros'],
    [
      {
        fromOpportunityId: 'kamino',
        toOpportunityId: 'jupiter-lend',
        amountMicros: '1',
        chain: 'sui',
      },
      400,
      'BAD_REQUEST',
      'body.chain',
    ],
  ])('%j → %i %s naming %s', async (body, status, code, field) => {
    const plans = await t.db.plan.count();
    const res = await rebalance(wallet, body).expect(status);
    expect(res.body).toMatchObject({ code, field });
    expect(res.body.message).toContain(field);
    if (code === 'CROSS_CHAIN_REBALANCE') {
      expect(res.body.message).toContain('POST /api/v1/svc/bridge/plan');
    }
    expect(await t.db.plan.count()).toBe(plans);
  });

  it('an agent key may not rebalance nor write guardrails', async () => {
    const plans = await t.db.plan.count();
    const body = kaminoToJupiter('1000000');
    expect((await rebalance(wallet, body, testKeys.agent).expect(403)).body.code).toBe(
      'UNAUTHORIZED',
    );
    await request(t.app)
      .put(`/api/v1/wallets/${wallet}/guardrails`)
      .set('X-API-Key', testKeys.agent)
      .send({ minNetApyBps: 0 })
      .expect(403);
    expect(await t.db.plan.count()).toBe(plans);
  });

  it('the guardrails on the target stop it with named blockers (stored blocked, nothing moves)', async () => {
    await request(t.app)
      .put(`/api/v1/wallets/${wallet}/guardrails`)
      .set('X-API-Key', testKeys.owner)
      .send({ venueAllowlist: ['kamino'], maxAllocationBps: { 'jupiter-lend': 5000 } })
      .expect(200);
    const plan = RebalancePlanDocument.parse(
      (await rebalance(wallet, kaminoToJupiter('3000000')).expect(200)).body,
    );
    expect(plan.status).toBe('blocked');
    expect(plan.blockers?.map((b) => b.code)).toEqual([
      'guardrail_venue_not_allowed',
      'guardrail_max_allocation',
    ]);
    expect(plan.legs).toBeUndefined();
    expect(await stakedIn(wallet, 'kamino')).toBe('5000000');
    await request(t.app)
      .put(`/api/v1/wallets/${wallet}/guardrails`)
      .set('X-API-Key', testKeys.owner)
      .send({})
      .expect(200);
    // The same request passes without them: 3 of 5 moves (no limit on jupiter-lend's share).
    expect((await rebalance(wallet, kaminoToJupiter('3000000')).expect(200)).body.status).toBe(
      'prepared',
    );
  });
});

it('a rebalance into drift (listed, not ready) is blocked venue_not_ready; nothing moves', async () => {
  const owner = await stakedOwner(3_000_000n);
  const wallet = owner.publicKey.toBase58();
  const plan = RebalancePlanDocument.parse(
    (
      await rebalance(wallet, {
        fromOpportunityId: 'kamino',
        toOpportunityId: 'drift',
        amountMicros: '1000000',
      }).expect(200)
    ).body,
  );
  expect(plan).toMatchObject({ status: 'blocked', submitted: false, ownerMustSign: false });
  expect(plan.blockers?.map((b) => [b.code, b.details])).toEqual([
    ['venue_not_ready', { readiness: 'listed' }],
  ]);
  expect(plan.legs).toBeUndefined();
  expect(await stakedIn(wallet, 'kamino')).toBe('3000000');
});

it('is idempotent on its Idempotency-Key', async () => {
  const wallet = (await stakedOwner(2_000_000n)).publicKey.toBase58();
  const body = kaminoToJupiter('all');
  const first = await rebalance(wallet, body).set('Idempotency-Key', 'rebalance-1').expect(200);
  const again = await rebalance(wallet, body).set('Idempotency-Key', 'rebalance-1').expect(200);
  expect(again.headers['idempotent-replayed']).toBe('true');
  expect(again.body.planId).toBe(first.body.planId);
});
