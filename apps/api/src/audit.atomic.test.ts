import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { Keypair } from '@solana/web3.js';
import { VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import type { SolanaBed } from '@yieldrouter/chain-beds/solana';
import { deployYieldRouter, startSolanaBed } from '@yieldrouter/chain-beds/solana';
import { AuditTrailDocument, HarvestResult, PlanDocument } from '@yieldrouter/schemas';
import type { TestApp } from './testing/startTestApp';
import { solanaBedSettings } from './testing/solanaBedSettings';
import { startTestApp } from './testing/startTestApp';

// Issue 21: an audit row is recorded in the same transaction as the change it records. Settle's
// outcome is group-committed with other requests' (one statement), cancel releases its legs in
// a transaction: a change without its row, or a row without its change, must never commit.
// Harvest and cancel are in the trail with how they ended.

const ownerKey = `owner-atomic-${randomBytes(8).toString('hex')}`;

let t: TestApp;
let solana: SolanaBed;

beforeAll(async () => {
  solana = await startSolanaBed();
  t = await startTestApp({
    ...solanaBedSettings(solana, deployYieldRouter(solana)),
    SVC_API_KEYS: JSON.stringify([{ key: ownerKey, role: 'owner', wallets: ['*'] }]),
  });
});
afterAll(async () => {
  await t?.close();
  await solana?.stop();
});

const post = (path: string, body: object, requestId: string) =>
  request(t.app)
    .post(`/api/v1${path}`)
    .set('X-API-Key', ownerKey)
    .set('X-Request-Id', requestId)
    .send(body);
const trail = async (wallet: string) =>
  AuditTrailDocument.parse(
    (await request(t.app).get(`/api/v1/wallets/${wallet}/audit`).set('X-API-Key', ownerKey)).body,
  ).events;

/** A funded owner with a routed (unsigned) plan of 2 USDC. */
async function routedPlan(): Promise<{ owner: Keypair; wallet: string; plan: PlanDocument }> {
  const owner = solana.createFundedKeypair();
  solana.mintUsdc(owner.publicKey, 10_000_000n);
  const wallet = owner.publicKey.toBase58();
  const routed = await post(
    `/wallets/${wallet}/route`,
    { amountMicros: '2000000', token: 'USDC', chain: 'solana' },
    `req-route-${randomBytes(4).toString('hex')}`,
  ).expect(200);
  return { owner, wallet, plan: PlanDocument.parse(routed.body) };
}

/** The owner signs the leg; the local SVM runs it unless `send` is false (then it is pending). */
function signAndSend(leg: { transaction: unknown } | undefined, owner: Keypair, send = true) {
  const tx = VersionedTransaction.deserialize(Buffer.from(String(leg?.transaction), 'base64'));
  tx.sign([owner]);
  if (send) solana.send(tx);
  return bs58.encode(tx.signatures[0] as Uint8Array);
}

const legOf = async (planId: string) =>
  (
    await t.db.$queryRaw<{ status: string; tx_id: string | null }[]>`
      SELECT status, tx_id FROM plan_legs WHERE plan_id = ${planId} AND leg_index = 0`
  )[0];
const legStatus = async (planId: string) => (await legOf(planId))?.status;
const auditRows = async (operation: string, planId: string) =>
  t.db.$queryRaw<{ outcome: string; request_id: string }[]>`
    SELECT outcome, request_id FROM audit_events
    WHERE operation = ${operation} AND plan_id = ${planId} ORDER BY id`;

/** While `work` runs, inserting an audit row of `operation` fails. */
async function withAuditRefused(operation: string, work: () => Promise<void>): Promise<void> {
  await t.db.$executeRawUnsafe(`
    CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'audit refused'; END $$`);
  await t.db.$executeRawUnsafe(`
    CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_events FOR EACH ROW
    WHEN (NEW.operation = '${operation}') EXECUTE FUNCTION refuse_audit()`);
  try {
    await work();
  } finally {
    await t.db.$executeRawUnsafe('DROP TRIGGER refuse_audit ON audit_events');
    await t.db.$executeRawUnsafe('DROP FUNCTION refuse_audit()');
  }
}

describe('audit rows commit with their change', () => {
  it('settle: when its audit row cannot be written, the leg does not settle', async () => {
    const { owner, plan } = await routedPlan();
    const planId = plan.planId ?? '';
    const txId = signAndSend(plan.legs?.[0], owner);
    await withAuditRefused('settlePlanLeg', async () => {
      const refused = await post(
        `/svc/plans/${planId}/legs/0/settle`,
        { txId },
        'req-settle-refused',
      );
      expect(refused.status).toBeGreaterThanOrEqual(500);
    });
    expect(await legStatus(planId)).toBe('unsigned');
    expect(await auditRows('settlePlanLeg', planId)).toEqual([]);

    const settled = await post(`/svc/plans/${planId}/legs/0/settle`, { txId }, 'req-settle-ok');
    expect(settled.status).toBe(200);
    expect(settled.body).toMatchObject({ status: 'confirmed', replay: false });
    // A replay changes nothing and is recorded as before: one row per call.
    await post(`/svc/plans/${planId}/legs/0/settle`, { txId }, 'req-settle-replay').expect(200);
    expect(await auditRows('settlePlanLeg', planId)).toEqual([
      { outcome: 'ok', request_id: 'req-settle-ok' },
      { outcome: 'ok', request_id: 'req-settle-replay' },
    ]);
  });

  it('settle, not final yet: the txId is held only with its audit row', async () => {
    const { owner, plan } = await routedPlan();
    const planId = plan.planId ?? '';
    const txId = signAndSend(plan.legs?.[0], owner, false);
    await withAuditRefused('settlePlanLeg', async () => {
      const refused = await post(`/svc/plans/${planId}/legs/0/settle`, { txId }, 'req-pending-x');
      expect(refused.status).toBeGreaterThanOrEqual(500);
    });
    expect(await legOf(planId)).toEqual({ status: 'unsigned', tx_id: null });
    const pending = await post(`/svc/plans/${planId}/legs/0/settle`, { txId }, 'req-pending');
    expect([pending.status, pending.body.status]).toEqual([200, 'pending']);
    expect(await legOf(planId)).toEqual({ status: 'submitted', tx_id: txId });
    expect(await auditRows('settlePlanLeg', planId)).toEqual([
      { outcome: 'ok', request_id: 'req-pending' },
    ]);
  });

  it('cancel: when its audit row cannot be written, the plan is not cancelled', async () => {
    const { plan } = await routedPlan();
    const planId = plan.planId ?? '';
    await withAuditRefused('cancelPlan', async () => {
      const refused = await post(`/svc/plans/${planId}/cancel`, {}, 'req-cancel-refused');
      expect(refused.status).toBeGreaterThanOrEqual(500);
    });
    expect(await legStatus(planId)).toBe('unsigned');
    const reservations = await t.db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM journal_entries WHERE plan_id = ${planId}`;
    expect(reservations[0]?.n).toBe(1);
    expect(await auditRows('cancelPlan', planId)).toEqual([]);

    await post(`/svc/plans/${planId}/cancel`, {}, 'req-cancel-ok').expect(200);
    expect(await legStatus(planId)).toBe('cancelled');
    expect(await auditRows('cancelPlan', planId)).toEqual([
      { outcome: 'ok', request_id: 'req-cancel-ok' },
    ]);
  });
});

describe('the trail records harvest and cancel with their outcome', () => {
  it('cancel: ok, again ok (nothing changes), and a refusal with its code', async () => {
    const { wallet, plan } = await routedPlan();
    const planId = plan.planId ?? '';
    await post(`/svc/plans/${planId}/cancel`, {}, 'req-trail-cancel').expect(200);
    await post(`/svc/plans/${planId}/cancel`, {}, 'req-trail-cancel-again').expect(200);
    const settledPlan = await routedPlan();
    const settledId = settledPlan.plan.planId ?? '';
    const txId = signAndSend(settledPlan.plan.legs?.[0], settledPlan.owner);
    await post(`/svc/plans/${settledId}/legs/0/settle`, { txId }, 'req-trail-settle').expect(200);
    await post(`/svc/plans/${settledId}/cancel`, {}, 'req-trail-not-cancellable').expect(409);

    const mine = (await trail(wallet)).filter((event) => event.operation === 'cancelPlan');
    expect(mine).toEqual([
      expect.objectContaining({
        requestId: 'req-trail-cancel-again',
        method: 'POST',
        path: '/svc/plans/{planId}/cancel',
        planId,
        outcome: 'ok',
        status: 200,
        errorCode: null,
      }),
      expect.objectContaining({ requestId: 'req-trail-cancel', planId, outcome: 'ok' }),
    ]);
    const other = await trail(settledPlan.wallet);
    expect(other[0]).toMatchObject({
      operation: 'cancelPlan',
      requestId: 'req-trail-not-cancellable',
      planId: settledId,
      outcome: 'refused',
      status: 409,
      errorCode: 'PLAN_NOT_CANCELLABLE',
    });
  });

  it('harvest: blocked when there is no yield, with the status it answered', async () => {
    const { wallet } = await routedPlan();
    const harvested = await post(`/wallets/${wallet}/harvest`, {}, 'req-trail-harvest');
    const result = HarvestResult.parse(harvested.body);
    expect([harvested.status, result.outcome]).toEqual([200, 'blocked']);
    const prepared = await post(
      `/wallets/${wallet}/harvest`,
      { execute: true },
      'req-trail-harvest-execute',
    );
    // Permissionless (no key): recorded under the path's wallet, as the public caller.
    const [last, first] = await trail(wallet);
    expect(first).toMatchObject({
      operation: 'harvest',
      method: 'POST',
      path: '/wallets/{address}/harvest',
      requestId: 'req-trail-harvest',
      actor: { role: 'public', keyId: null },
      planId: null,
      outcome: 'blocked',
      status: 200,
      errorCode: null,
    });
    expect(last).toMatchObject({
      operation: 'harvest',
      requestId: 'req-trail-harvest-execute',
      outcome: HarvestResult.parse(prepared.body).outcome === 'blocked' ? 'blocked' : 'ok',
      status: prepared.status,
    });
  });
});
