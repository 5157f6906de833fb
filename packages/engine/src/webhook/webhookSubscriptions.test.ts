import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import { createHmacKeyCipher } from '@yieldrouter/webhooks/server';
import { EngineError } from '../errors';
import { MAX_WEBHOOKS_PER_OWNER, createWebhook } from './createWebhook';
import { deleteWebhook } from './deleteWebhook';
import { listWebhookEvents } from './listWebhookEvents';
import { buildWebhookEventTypesDocument, listWebhooks } from './listWebhooks';
import { rotateWebhook } from './rotateWebhook';

const STRICT = { allowInsecure: false, allowPrivate: false };
const cipher = createHmacKeyCipher('test-webhook-key-secret-0123456789abcdef');
const now = new Date('2026-03-01T12:00:00Z');
const publicDns = async () => [{ address: '93.184.216.34' }];

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

const create = (url: string, ownerKeyId = 'key_owner', lookup = publicDns) =>
  createWebhook({
    db: test.db,
    cipher,
    urlPolicy: STRICT,
    lookup,
    owner: { keyId: ownerKeyId, wallets: ['W1'] },
    input: { url, eventTypes: ['deposit.settled'], description: 'treasury' },
    now,
  });

async function refusal(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}

describe('webhook subscriptions (use cases)', () => {
  it('creates with a key shown once and stored only sealed', async () => {
    const created = await create('https://hooks.example.com/svc');
    expect(created).toMatchObject({
      url: 'https://hooks.example.com/svc',
      eventTypes: ['deposit.settled'],
      description: 'treasury',
      wallets: ['W1'],
      createdAt: now.toISOString(),
      rotatedAt: null,
      previousKeyExpiresAt: null,
    });
    const row = await test.db.webhookSubscription.findUniqueOrThrow({
      where: { id: created.id },
    });
    expect(row.keySealed).not.toContain(created.hmacKey);
    expect(cipher.decrypt(row.keySealed, created.id)).toBe(created.hmacKey);
    const listed = await listWebhooks(test.db, 'key_owner');
    expect(JSON.stringify(listed)).not.toContain(created.hmacKey);
    expect(listed.webhooks.map((webhook) => webhook.id)).toContain(created.id);
  });

  it.each([
    ['http://hooks.example.com/', 'body.url: must use https'],
    [
      'https://127.0.0.1/',
      'body.url: points to a private, loopback, link-local or reserved address',
    ],
    ['https://[::ffff:169.254.169.254]/', 'body.url: points to a private'],
    ['https://localhost:8443/', 'body.url: points to a local host name'],
    ['https://user:pw@hooks.example.com/', 'body.url: must not contain credentials'],
  ])('refuses %s with 400 naming body.url', async (url, message) => {
    const error = await refusal(create(url));
    expect([error.code, error.field]).toEqual(['BAD_REQUEST', 'body.url']);
    expect(error.message).toContain(message);
  });

  it('refuses a name that resolves to a private address, or not at all', async () => {
    const rebinding = async () => [{ address: '10.0.0.7' }];
    const error = await refusal(create('https://internal.example.com/', 'key_owner', rebinding));
    expect(error.message).toBe(
      'body.url: host resolves to a private, loopback, link-local or reserved address',
    );
    const nowhere = async () => {
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    };
    expect(
      (await refusal(create('https://nowhere.example.com/', 'key_owner', nowhere))).message,
    ).toBe('body.url: host does not resolve (ENOTFOUND)');
  });

  it(`an owner key holds at most ${MAX_WEBHOOKS_PER_OWNER}`, async () => {
    for (let index = 0; index < MAX_WEBHOOKS_PER_OWNER; index += 1) {
      await create(`https://hooks.example.com/${index}`, 'key_busy');
    }
    const error = await refusal(create('https://hooks.example.com/one-more', 'key_busy'));
    expect(error.code).toBe('WEBHOOK_LIMIT_REACHED');
  });

  it('rotate and delete: only the owner; others get 404 naming path.id', async () => {
    const created = await create('https://hooks.example.com/rotate');
    const rotate = (ownerKeyId: string) =>
      rotateWebhook({
        db: test.db,
        cipher,
        ownerKeyId,
        id: created.id,
        overlapMs: 3_600_000,
        now,
      });
    const notMine = await refusal(rotate('key_other'));
    expect([notMine.code, notMine.field]).toEqual(['NOT_FOUND', 'path.id']);
    const rotated = await rotate('key_owner');
    expect(rotated.hmacKey).not.toBe(created.hmacKey);
    expect(rotated.previousKeyExpiresAt).toBe(new Date(now.getTime() + 3_600_000).toISOString());

    const remove = (ownerKeyId: string) =>
      deleteWebhook({ db: test.db, ownerKeyId, id: created.id, now });
    expect((await refusal(remove('key_other'))).code).toBe('NOT_FOUND');
    expect(await remove('key_owner')).toEqual({
      id: created.id,
      deleted: true,
      deletedAt: now.toISOString(),
    });
    expect((await refusal(remove('key_owner'))).code).toBe('NOT_FOUND');
    expect((await refusal(rotate('key_owner'))).code).toBe('NOT_FOUND');
  });

  it('the event types document lists the eleven types', () => {
    const document = buildWebhookEventTypesDocument();
    expect(document.count).toBe(11);
    expect(document.eventTypes.map((entry) => entry.type)).toContain('plan.simulated');
    expect(document.eventTypes.map((entry) => entry.type)).toContain('plan.divergence');
    expect(document.eventTypes.map((entry) => entry.type)).toContain('apy.updated');
    expect(document.eventTypes.map((entry) => entry.type)).toContain('auto_pay.paid');
  });

  it('an events cursor that is not ours is 400 naming query.cursor', async () => {
    const viewer = { wallets: ['W1'], ownerKeyId: 'key_owner' };
    for (const cursor of ['garbage', Buffer.from('evt:abc').toString('base64url')]) {
      const error = await refusal(listWebhookEvents(test.db, viewer, { cursor }));
      expect([error.code, error.field]).toEqual(['BAD_REQUEST', 'query.cursor']);
    }
  });
});
