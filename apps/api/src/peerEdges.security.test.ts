import { randomBytes, randomUUID } from 'node:crypto';
import { entropyToMnemonic } from '@scure/bip39';
import { wordlist as french } from '@scure/bip39/wordlists/french';
import { wordlist as italian } from '@scure/bip39/wordlists/italian';
import { wordlist as japanese } from '@scure/bip39/wordlists/japanese';
import { wordlist as spanish } from '@scure/bip39/wordlists/spanish';
import request from 'supertest';
import { memoryLogger } from './testing/memoryLogger';
import type { TestApp } from './testing/startTestApp';
import { startTestApp } from './testing/startTestApp';

// Issue 41: a peer client's honest requests pass the key-material guard (64-hex idempotency
// keys, `oy_route_<wallet>_<nonce>`, Sui wallets, `ownerAddress`), and the forms the probe got
// past it (a key as a field or parameter name, `0X`, hex glued to letters or in groups, phrases
// of other wordlists or camelCase) are refused with nothing echoed, logged or stored.
// Idempotency-Keys are per caller; an all-capitals EVM address is its wallet; the wallet scope
// is checked before the body.

const SUI_WALLET = `0x${randomBytes(32).toString('hex')}`;
const EVM_WALLET = '0xd8da6bf26964af9d7eed9e03e53415d37aa96045';
const OTHER_WALLET = '0x2222222222222222222222222222222222222222';
const keys = {
  sui: `owner-sui-${randomBytes(6).toString('hex')}`,
  evm: `owner-evm-${randomBytes(6).toString('hex')}`,
  agent: `agent-other-${randomBytes(6).toString('hex')}`,
};

let t: TestApp;
const { logger, lines } = memoryLogger();
beforeAll(async () => {
  t = await startTestApp(
    {
      SVC_RATE_LIMIT_PUBLIC: '100000',
      SVC_RATE_LIMIT_KEYED: '100000',
      SVC_API_KEYS: JSON.stringify([
        { key: keys.sui, role: 'owner', wallets: [SUI_WALLET] },
        { key: keys.evm, role: 'owner', wallets: [EVM_WALLET] },
        { key: keys.agent, role: 'agent', wallets: [OTHER_WALLET] },
      ]),
    },
    { logger },
  );
});
afterAll(async () => {
  await t.close();
});

const hex32 = () => randomBytes(32).toString('hex');
const route = (body: object, key = keys.sui, wallet = SUI_WALLET) =>
  request(t.app)
    .post(`/api/v1/wallets/${wallet}/route`)
    .set('X-API-Key', key)
    .send({ amountMicros: '1000000', token: 'USDC', ...body });

/** Everything the service wrote or answered must be free of `secret`. */
async function expectNowhere(secret: string, ...answers: request.Response[]) {
  for (const answer of answers) {
    expect(JSON.stringify(answer.body)).not.toContain(secret);
    expect(JSON.stringify(answer.headers)).not.toContain(secret);
  }
  expect(lines.join('')).not.toContain(secret);
  const stored = await t.db.$queryRawUnsafe<{ found: boolean }[]>(
    `SELECT EXISTS (SELECT 1 FROM idempotency_keys WHERE key LIKE $1) OR
            EXISTS (SELECT 1 FROM idempotent_writes WHERE key LIKE $1) OR
            EXISTS (SELECT 1 FROM plans p WHERE p::text LIKE $1) AS found`,
    `%${secret}%`,
  );
  expect(stored[0]?.found).toBe(false);
}

describe("a peer client's honest requests pass", () => {
  it('a random 64-hex Idempotency-Key on a Sui wallet route, header or body', async () => {
    const key = hex32();
    const first = await route({}).set('Idempotency-Key', key);
    expect(first.status).toBe(200);
    const again = await route({}).set('Idempotency-Key', key).expect(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const inBody = await route({ idempotencyKey: hex32() });
    expect(inBody.status).toBe(200);
    // The key is stored as its digest only.
    await expectNowhere(key);
  });

  it('oy_route_<wallet>_<nonce> as the idempotency key', async () => {
    const key = `oy_route_${SUI_WALLET}_${Date.now()}`;
    const res = await route({}).set('Idempotency-Key', key);
    expect(res.status).toBe(200);
    const body = await route({ idempotencyKey: `oy_route_${SUI_WALLET}_${randomUUID()}` });
    expect(body.status).toBe(200);
  });

  it('ownerAddress (a Sui address) on bridge rescue is not key material', async () => {
    const res = await request(t.app)
      .post('/api/v1/svc/bridge/rescue')
      .set('X-API-Key', keys.sui)
      .send({ planId: `plan_${randomBytes(16).toString('hex')}`, ownerAddress: SUI_WALLET });
    expect(res.body.code).not.toBe('KEY_MATERIAL_REFUSED');
  });
});

describe('what the probe got past the guard is refused, echoed nowhere', () => {
  const phrase = (list: string[]) => entropyToMnemonic(randomBytes(16), list);
  const forms: Record<string, () => string> = {
    '0X prefix': () => `0X${hex32()}`,
    'hex glued to letters': () => `mykey${hex32()}`,
    'hex in groups': () => hex32().match(/.{4}/g)!.join(' '),
    'hex in pairs with colons': () => hex32().match(/.{2}/g)!.join(':'),
    Italian: () => phrase(italian),
    Spanish: () => phrase(spanish),
    French: () => phrase(french),
    Japanese: () => phrase(japanese),
    camelCase: () =>
      phrase(italian)
        .split(' ')
        .map((word, index) => (index ? word[0]!.toUpperCase() + word.slice(1) : word))
        .join(''),
  };

  it.each(Object.entries(forms))(
    '%s: as a value, a field name and a query name',
    async (_n, make) => {
      const secret = make();
      const value = await route({ note: secret });
      const name = await request(t.app)
        .post('/api/v1/svc/strategies/deposit/plan')
        .send({ strategyId: 'morpho', amountMicros: '1000000', [secret]: 1 });
      const query = await request(t.app).get(`/api/v1/svc/status?${encodeURIComponent(secret)}=1`);
      for (const res of [value, name, query]) {
        expect([res.status, res.body.code]).toEqual([400, 'KEY_MATERIAL_REFUSED']);
      }
      expect(name.body.field).toBe('body[a field name]');
      await expectNowhere(secret, value, name, query);
    },
  );

  it.each(Object.entries(forms))(
    '%s: in a 404 path, the access log and X-Request-Id',
    async (_n, make) => {
      const secret = make();
      const path = await request(t.app).get(`/api/v1/nothing/${encodeURIComponent(secret)}`);
      expect([path.status, path.body.code]).toEqual([400, 'KEY_MATERIAL_REFUSED']);
      await expectNowhere(secret, path);
      // Header values are Latin-1: a phrase goes as typed without its accents (not Japanese).
      const typed = secret.normalize('NFKD').replace(/[^\x20-\x7e]/g, '');
      if (!/[a-z]{3}/i.test(typed)) return;
      const header = await request(t.app).get('/api/v1/svc/status').set('X-Request-Id', typed);
      expect([header.status, header.body.code]).toEqual([400, 'KEY_MATERIAL_REFUSED']);
      expect(header.headers['x-request-id']).toMatch(/^req_/);
      await expectNowhere(typed, header);
    },
  );
});

describe('Idempotency-Keys are per caller', () => {
  const plan = { strategyId: 'morpho', amountMicros: '1000000' };
  const deposit = (key?: string) => {
    const call = request(t.app).post('/api/v1/svc/strategies/deposit/plan');
    return key ? call.set('X-API-Key', key) : call;
  };

  it("an anonymous caller never gets a keyed caller's stored answer, nor blocks it", async () => {
    const key = randomUUID();
    const owner = await deposit(keys.evm).set('Idempotency-Key', key).send(plan).expect(200);
    const anonymous = await deposit().set('Idempotency-Key', key).send(plan).expect(200);
    expect(anonymous.headers['idempotent-replayed']).toBeUndefined();
    expect(anonymous.body.planId).not.toBe(owner.body.planId);
    const ownerAgain = await deposit(keys.evm).set('Idempotency-Key', key).send(plan).expect(200);
    expect(ownerAgain.body.planId).toBe(owner.body.planId);
    const otherBody = await deposit().set('Idempotency-Key', randomUUID()).send(plan).expect(200);
    expect(otherBody.body.planId).not.toBe(owner.body.planId);
  });
});

describe('wallet scope', () => {
  it('an all-capitals EVM address is the wallet of its key', async () => {
    const caps = `0x${EVM_WALLET.slice(2).toUpperCase()}`;
    const res = await request(t.app)
      .get(`/api/v1/wallets/${caps}/position`)
      .set('X-API-Key', keys.evm);
    expect(res.status).toBe(200);
  });

  it('is checked before the body: no schema is told to a caller without access', async () => {
    const res = await route({ amountMicros: 'not a number', bogus: true }, keys.agent, EVM_WALLET);
    expect([res.status, res.body.code]).toEqual([403, 'UNAUTHORIZED']);
    const preview = await request(t.app)
      .post(`/api/v1/wallets/${EVM_WALLET}/preview`)
      .set('X-API-Key', keys.agent)
      .send({ amountMicros: 'not a number', bogus: true });
    expect([preview.status, preview.body.code]).toEqual([403, 'WALLET_SCOPE']);
  });
});
