import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { TestApp } from './testing/startTestApp';
import { OTHER_WALLET, TEST_WALLET, startTestApp, testKeys } from './testing/startTestApp';

// Webhooks on a strict app (no private targets): who may do what, and which URLs are refused.

const otherOwner = `test-owner-b-${randomBytes(8).toString('hex')}`;
const PUBLIC_TARGET = 'https://93.184.216.34/hooks';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    SVC_API_KEYS: JSON.stringify([
      { key: testKeys.owner, role: 'owner', wallets: [TEST_WALLET] },
      { key: otherOwner, role: 'owner', wallets: [OTHER_WALLET] },
      { key: testKeys.agent, role: 'agent', wallets: [TEST_WALLET] },
    ]),
  });
});
afterAll(() => t.close());

const create = (key: string, body: object) =>
  request(t.app).post('/api/v1/svc/webhooks').set('X-API-Key', key).send(body);

describe('webhooks: access', () => {
  it('an agent key can neither create nor list subscriptions', async () => {
    const created = await create(testKeys.agent, {
      url: PUBLIC_TARGET,
      eventTypes: ['deposit.settled'],
    });
    expect([created.status, created.body.code]).toEqual([403, 'UNAUTHORIZED']);
    const listed = await request(t.app)
      .get('/api/v1/svc/webhooks')
      .set('X-API-Key', testKeys.agent);
    expect([listed.status, listed.body.code]).toEqual([403, 'UNAUTHORIZED']);
  });

  it("another owner's subscription is invisible: not listed, 404 on rotate and delete", async () => {
    const mine = await create(testKeys.owner, {
      url: PUBLIC_TARGET,
      eventTypes: ['deposit.settled'],
    }).expect(201);
    const id = mine.body.id as string;
    const theirs = await request(t.app).get('/api/v1/svc/webhooks').set('X-API-Key', otherOwner);
    expect(theirs.body.webhooks).toEqual([]);
    for (const call of [
      request(t.app).post(`/api/v1/svc/webhooks/${id}/rotate`).set('X-API-Key', otherOwner),
      request(t.app).delete(`/api/v1/svc/webhooks/${id}`).set('X-API-Key', otherOwner),
    ]) {
      const res = await call;
      expect([res.status, res.body.code, res.body.field]).toEqual([404, 'NOT_FOUND', 'path.id']);
    }
    // Still there for its owner.
    await request(t.app)
      .delete(`/api/v1/svc/webhooks/${id}`)
      .set('X-API-Key', testKeys.owner)
      .expect(200);
  });

  it('a malformed id is 400 naming path.id (never a lookup)', async () => {
    const res = await request(t.app)
      .delete('/api/v1/svc/webhooks/not-a-webhook')
      .set('X-API-Key', testKeys.owner);
    expect([res.status, res.body.code, res.body.field]).toEqual([400, 'BAD_REQUEST', 'path.id']);
  });

  it("the events page refuses a wallet outside the key's scope", async () => {
    const res = await request(t.app)
      .get('/api/v1/svc/webhooks/events')
      .query({ wallet: OTHER_WALLET })
      .set('X-API-Key', testKeys.agent);
    expect([res.status, res.body.code, res.body.field]).toEqual([
      403,
      'WALLET_SCOPE',
      'query.wallet',
    ]);
  });
});

describe('webhooks: target URLs', () => {
  it.each([
    'https://127.0.0.1/hooks',
    'https://localhost/hooks',
    'https://169.254.169.254/latest/meta-data/',
    'https://metadata.google.internal/',
    'https://10.0.0.8/',
    'https://100.64.0.1/',
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[fd00::1]/',
    'https://0.0.0.0/',
    'https://2130706433/',
    'ftp://93.184.216.34/',
    'javascript:alert(1)',
    'https://user:secret@93.184.216.34/',
    'not a url',
  ])('%s is refused with 400 naming body.url', async (url) => {
    const res = await create(testKeys.owner, { url, eventTypes: ['deposit.settled'] });
    expect([res.status, res.body.code, res.body.field]).toEqual([400, 'BAD_REQUEST', 'body.url']);
    expect(res.body.message).toMatch(/^body\.url: /);
  });

  it('unknown or repeated event types are 400 naming body.eventTypes', async () => {
    const unknown = await create(testKeys.owner, { url: PUBLIC_TARGET, eventTypes: ['nope'] });
    expect([unknown.status, unknown.body.field]).toEqual([400, 'body.eventTypes.0']);
    const twice = await create(testKeys.owner, {
      url: PUBLIC_TARGET,
      eventTypes: ['apy.updated', 'apy.updated'],
    });
    expect([twice.status, twice.body.field]).toEqual([400, 'body.eventTypes']);
  });

  it('the key is shown once: never by the list', async () => {
    const created = await create(testKeys.owner, {
      url: PUBLIC_TARGET,
      eventTypes: ['position.updated'],
    }).expect(201);
    const hmacKey = created.body.hmacKey as string;
    expect(hmacKey).toMatch(/^whsec_/);
    const listed = await request(t.app)
      .get('/api/v1/svc/webhooks')
      .set('X-API-Key', testKeys.owner);
    expect(JSON.stringify(listed.body)).not.toContain(hmacKey);
    expect(JSON.stringify(listed.body)).not.toContain('v1.');
  });
});
