import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { CageDocument, CagePlanDocument, WalletCageDocument } from '@yieldrouter/schemas';
import type { TestApp } from './testing/startTestApp';
import { startTestApp, testKeys } from './testing/startTestApp';

// The cage routes refusing: no contract configured (null / blocked with the reason, never a
// guess), a chain that does not answer (unavailable), and bad input (4xx naming the field).
// Nothing is stored on any of them.

const ownerKey = `owner-cage-${randomBytes(6).toString('hex')}`;
const OWNER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const VENUE = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
let unset: TestApp;
let silent: TestApp;

beforeAll(async () => {
  const keys = JSON.stringify([
    { key: ownerKey, role: 'owner', wallets: ['*'] },
    { key: testKeys.agent, role: 'agent', wallets: ['*'] },
  ]);
  unset = await startTestApp({ SVC_API_KEYS: keys });
  // A cage configured on a chain whose RPC refuses connections.
  silent = await startTestApp({
    SVC_API_KEYS: keys,
    SVC_RPC_TIMEOUT_MS: '500',
    SVC_BASE_RPC_URL: 'http://127.0.0.1:9',
    SVC_BASE_CAGE_ADDRESS: VENUE,
  });
});
afterAll(async () => {
  await unset?.close();
  await silent?.close();
});

const api = (path: string) => `/api/v1${path}`;
const prepareBase = (t: TestApp, body: object, key = ownerKey, wallet = OWNER) =>
  request(t.app)
    .post(api(`/wallets/${wallet}/base/cage/prepare`))
    .set('X-API-Key', key)
    .send(body);

const readWallet = async (t: TestApp, chain: string) =>
  WalletCageDocument.parse(
    (
      await request(t.app)
        .get(api(`/wallets/${OWNER}/${chain}/cage`))
        .set('X-API-Key', ownerKey)
        .expect(200)
    ).body,
  );

describe('no cage configured', () => {
  it.each(['base', 'arbitrum'])(
    'GET /svc/%s/cage: contract null with the reason',
    async (chain) => {
      const doc = CageDocument.parse(
        (
          await request(unset.app)
            .get(api(`/svc/${chain}/cage`))
            .expect(200)
        ).body,
      );
      expect(doc.contract.address).toBeNull();
      expect(doc.contract.reason).toBe('cage_not_configured');
      expect(doc.contract.detail).toContain(`SVC_${chain.toUpperCase()}_CAGE_ADDRESS`);
    },
  );

  it('the wallet policy is unavailable, the plans blocked, with no transaction', async () => {
    const read = await readWallet(unset, 'arbitrum');
    expect(read).toMatchObject({
      status: 'unavailable',
      reason: 'cage_not_configured',
      policy: null,
    });
    const policy = CagePlanDocument.parse(
      (
        await request(unset.app)
          .put(api(`/wallets/${OWNER}/base/cage/policy`))
          .set('X-API-Key', ownerKey)
          .send({ enabled: true, skimBps: 0, venues: [], payees: [] })
          .expect(200)
      ).body,
    );
    expect(policy).toMatchObject({ status: 'blocked', reason: 'cage_not_configured' });
    expect(policy.transactionRequest).toBeNull();
    const action = CagePlanDocument.parse(
      (await prepareBase(unset, { kind: 'ROUTE', venue: VENUE, amountMicros: '1' }).expect(200))
        .body,
    );
    expect(action).toMatchObject({ status: 'blocked', reason: 'cage_not_configured' });
  });
});

describe('a chain that does not answer', () => {
  it('fails closed: the policy is unavailable and the plan blocked, never guessed', async () => {
    const read = await readWallet(silent, 'base');
    expect(read).toMatchObject({ status: 'unavailable', reason: 'rpc_error', policy: null });
    const plan = CagePlanDocument.parse(
      (await prepareBase(silent, { kind: 'EXIT', venue: VENUE, amountMicros: '1' }).expect(200))
        .body,
    );
    expect(plan).toMatchObject({
      status: 'blocked',
      reason: 'rpc_error',
      transactionRequest: null,
    });
  });
});

describe('bad input', () => {
  it.each([
    [{ kind: 'TRANSFER', venue: VENUE, amountMicros: '1' }, 'body.kind'],
    [{ kind: 'ROUTE', venue: VENUE, amountMicros: '0' }, 'body.amountMicros'],
    [{ kind: 'ROUTE', venue: VENUE, amountMicros: '9223372036854775808' }, 'body.amountMicros'],
    [{ kind: 'ROUTE', venue: VENUE, amountMicros: '1.5' }, 'body.amountMicros'],
    [{ kind: 'ROUTE', amountMicros: '1' }, 'body.venue'],
    [{ kind: 'ROUTE', venue: VENUE, payee: OWNER, amountMicros: '1' }, 'body.payee'],
    [{ kind: 'AUTOPAY', venue: VENUE, amountMicros: '1' }, 'body.payee'],
    [{ kind: 'AUTOPAY', venue: VENUE, payee: 'alice', amountMicros: '1' }, 'body.payee'],
    [{ kind: 'REBALANCE', fromVenue: VENUE, amountMicros: '1' }, 'body.toVenue'],
    [{ kind: 'EXIT', venue: VENUE, amountMicros: '1', to: OWNER }, 'body.to'],
  ])('prepare %j → 400 naming %s', async (body, field) => {
    const res = await prepareBase(silent, body).expect(400);
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', field });
  });

  it('a wallet that is not an EVM address → 400 naming it', async () => {
    const wallet = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
    const res = await prepareBase(
      silent,
      { kind: 'EXIT', venue: VENUE, amountMicros: '1' },
      ownerKey,
      wallet,
    );
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('params.address');
    const arbitrum = await request(silent.app)
      .post(api('/svc/arbitrum/cage/prepare'))
      .send({ wallet: 'not-an-address', kind: 'EXIT', venue: VENUE, amountMicros: '1' });
    expect([arbitrum.status, arbitrum.body.field]).toEqual([400, 'body.wallet']);
  });

  it('skim over 1000 bps → 400; an agent changing the policy or preparing for the owner → 403', async () => {
    const put = (key: string, body: object) =>
      request(silent.app)
        .put(api(`/wallets/${OWNER}/base/cage/policy`))
        .set('X-API-Key', key)
        .send(body);
    const policy = { enabled: true, skimBps: 1001, venues: [VENUE], payees: [] };
    expect((await put(ownerKey, policy).expect(400)).body.field).toBe('body.skimBps');
    const byAgent = await put(testKeys.agent, { ...policy, skimBps: 100 });
    expect([byAgent.status, byAgent.body.code]).toEqual([403, 'UNAUTHORIZED']);
    const prepared = await prepareBase(
      silent,
      { kind: 'EXIT', venue: VENUE, amountMicros: '1' },
      testKeys.agent,
    );
    expect(prepared.status).toBe(403);
  });

  it('nothing is stored: no plan and no leg in the books', async () => {
    for (const t of [unset, silent]) {
      expect(await t.db.plan.count()).toBe(0);
      expect(await t.db.planLeg.count()).toBe(0);
    }
  });
});
