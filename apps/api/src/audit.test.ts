import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { Keypair } from '@solana/web3.js';
import { VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import type { SolanaBed } from '@yieldrouter/chain-beds/solana';
import { deployYieldRouter, startSolanaBed } from '@yieldrouter/chain-beds/solana';
import { AuditTrailDocument, PlanDocument } from '@yieldrouter/schemas';
import type { TestApp } from './testing/startTestApp';
import { solanaBedSettings } from './testing/solanaBedSettings';
import { OTHER_WALLET, startTestApp } from './testing/startTestApp';

// Issue 21: every state-changing call on a wallet is in its audit trail, with who made it (role
// and key id, never the key), the request and plan ids and how it ended; refusals too. The
// trail holds no body, signature or transaction.

const ownerKey = `owner-audit-${randomBytes(8).toString('hex')}`;
const agentKey = `agent-audit-${randomBytes(8).toString('hex')}`;
const otherAgentKey = `agent-other-${randomBytes(8).toString('hex')}`;

let t: TestApp;
let solana: SolanaBed;
let owner: Keypair;
let wallet: string;

beforeAll(async () => {
  solana = await startSolanaBed();
  owner = solana.createFundedKeypair();
  solana.mintUsdc(owner.publicKey, 10_000_000n);
  wallet = owner.publicKey.toBase58();
  t = await startTestApp({
    ...solanaBedSettings(solana, deployYieldRouter(solana)),
    SVC_WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    SVC_API_KEYS: JSON.stringify([
      { key: ownerKey, role: 'owner', wallets: [wallet] },
      { key: agentKey, role: 'agent', wallets: [wallet] },
      { key: otherAgentKey, role: 'agent', wallets: [OTHER_WALLET] },
    ]),
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
const trail = async (apiKey: string, query: Record<string, string> = {}) =>
  AuditTrailDocument.parse(
    (
      await request(t.app)
        .get(`/api/v1/wallets/${wallet}/audit`)
        .query(query)
        .set('X-API-Key', apiKey)
        .expect(200)
    ).body,
  );

describe('GET /wallets/{address}/audit', () => {
  let signature = '';

  it('lists route, settle and withdraw (and a refusal) with role, key id, request and plan ids', async () => {
    const routed = await post(
      `/wallets/${wallet}/route`,
      { amountMicros: '2500000', token: 'USDC', chain: 'solana' },
      'req-audit-route',
    ).expect(200);
    const plan = PlanDocument.parse(routed.body);
    const leg = plan.legs?.[0];
    if (!leg || !plan.planId) throw new Error('no leg');
    const tx = VersionedTransaction.deserialize(Buffer.from(String(leg.transaction), 'base64'));
    tx.sign([owner]);
    solana.send(tx);
    signature = bs58.encode(tx.signatures[0] as Uint8Array);
    await post(
      `/svc/plans/${plan.planId}/legs/0/settle`,
      { txId: signature },
      'req-audit-settle',
    ).expect(200);
    const exit = await post(
      `/wallets/${wallet}/withdraw`,
      { amountMicros: '1000000' },
      'req-audit-withdraw',
    ).expect(200);
    await post(
      `/wallets/${wallet}/withdraw`,
      { amountMicros: '9000000' },
      'req-audit-short',
    ).expect(422);

    const { events, count, nextCursor } = await trail(agentKey);
    expect(nextCursor).toBeNull();
    expect(count).toBe(4);
    const keyId = events[0]?.actor.keyId;
    expect(keyId).toMatch(/^static_[0-9a-f]{12}$/);
    expect(events).toEqual([
      expect.objectContaining({
        operation: 'withdraw',
        method: 'POST',
        path: '/wallets/{address}/withdraw',
        requestId: 'req-audit-short',
        planId: null,
        outcome: 'refused',
        status: 422,
        errorCode: 'INSUFFICIENT_LIQUID',
      }),
      expect.objectContaining({
        operation: 'withdraw',
        requestId: 'req-audit-withdraw',
        planId: exit.body.planId,
        outcome: 'ok',
        status: 200,
        errorCode: null,
      }),
      expect.objectContaining({
        operation: 'settlePlanLeg',
        path: '/svc/plans/{planId}/legs/{legIndex}/settle',
        requestId: 'req-audit-settle',
        planId: plan.planId,
        outcome: 'ok',
      }),
      expect.objectContaining({
        operation: 'routeFunds',
        requestId: 'req-audit-route',
        planId: plan.planId,
        outcome: 'ok',
        status: 200,
      }),
    ]);
    for (const event of events) expect(event.actor).toEqual({ role: 'owner', keyId });
    // Recorded with the write: the route's row is in the same transaction as its plan.
    const rows = await t.db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM audit_events WHERE plan_id = ${plan.planId}`;
    expect(rows[0]?.n).toBe(2);
  });

  it('holds no key, signature or body', async () => {
    const raw = JSON.stringify(
      await t.db.$queryRaw`SELECT * FROM audit_events`,
      (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value),
    );
    for (const secret of [ownerKey, agentKey, signature, '2500000', '9000000']) {
      expect(raw).not.toContain(secret);
    }
    expect(JSON.stringify(await trail(ownerKey))).not.toContain(signature);
  });

  it('pages with nextCursor, newest first, without repeats', async () => {
    const first = await trail(ownerKey, { limit: '3' });
    expect(first.count).toBe(3);
    expect(first.nextCursor).not.toBeNull();
    const second = await trail(ownerKey, { limit: '3', cursor: String(first.nextCursor) });
    expect(second).toMatchObject({ count: 1, nextCursor: null });
    const ids = [...first.events, ...second.events].map((event) => Number(event.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(4);
    const bad = await request(t.app)
      .get(`/api/v1/wallets/${wallet}/audit`)
      .query({ cursor: 'nope' })
      .set('X-API-Key', ownerKey)
      .expect(400);
    expect(bad.body).toMatchObject({ code: 'BAD_REQUEST', field: 'query.cursor' });
  });

  it('refuses a key scoped to another wallet, and a missing key', async () => {
    const refused = await request(t.app)
      .get(`/api/v1/wallets/${wallet}/audit`)
      .set('X-API-Key', otherAgentKey)
      .expect(403);
    expect(refused.body.code).toBe('WALLET_SCOPE');
    await request(t.app).get(`/api/v1/wallets/${wallet}/audit`).expect(401);
  });

  it('records auto-yield and webhook changes', async () => {
    await request(t.app)
      .put(`/api/v1/wallets/${wallet}/auto-yield`)
      .set('X-API-Key', ownerKey)
      .set('X-Request-Id', 'req-audit-auto-yield')
      .send({ enabled: true })
      .expect(200);
    const created = await request(t.app)
      .post('/api/v1/svc/webhooks')
      .set('X-API-Key', ownerKey)
      .set('X-Request-Id', 'req-audit-webhook')
      .send({ url: 'https://hooks.example.com/svc', eventTypes: ['deposit.settled'] });
    const { events } = await trail(ownerKey, { limit: '2' });
    expect(events[1]).toMatchObject({
      operation: 'setAutoYield',
      method: 'PUT',
      requestId: 'req-audit-auto-yield',
      outcome: 'ok',
    });
    expect(events[0]).toMatchObject({
      operation: 'createWebhook',
      requestId: 'req-audit-webhook',
      status: created.status,
    });
    expect(JSON.stringify(events)).not.toContain('hmacKey');
  });

  it('a webhook change and its audit row commit together, or neither does', async () => {
    const subscriptions = () => t.db.webhookSubscription.count();
    const before = await subscriptions();
    // The audit row of a webhook creation fails to insert: the subscription must not stay.
    await t.db.$executeRawUnsafe(`
      CREATE FUNCTION refuse_webhook_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'audit refused'; END $$`);
    await t.db.$executeRawUnsafe(`
      CREATE TRIGGER refuse_webhook_audit BEFORE INSERT ON audit_events FOR EACH ROW
      WHEN (NEW.operation = 'createWebhook') EXECUTE FUNCTION refuse_webhook_audit()`);
    try {
      const refused = await post(
        '/svc/webhooks',
        { url: 'http://127.0.0.1:9/hook', eventTypes: ['deposit.settled'] },
        'req-audit-atomic',
      );
      expect(refused.status).toBeGreaterThanOrEqual(500);
      expect(await subscriptions()).toBe(before);
    } finally {
      await t.db.$executeRawUnsafe('DROP TRIGGER refuse_webhook_audit ON audit_events');
      await t.db.$executeRawUnsafe('DROP FUNCTION refuse_webhook_audit()');
    }
    const created = await post(
      '/svc/webhooks',
      { url: 'http://127.0.0.1:9/hook', eventTypes: ['deposit.settled'] },
      'req-audit-atomic-2',
    ).expect(201);
    expect(await subscriptions()).toBe(before + 1);
    const { events } = await trail(ownerKey, { limit: '1' });
    expect(events[0]).toMatchObject({
      operation: 'createWebhook',
      requestId: 'req-audit-atomic-2',
    });
    expect(created.body.id).toEqual(expect.any(String));
  });
});
