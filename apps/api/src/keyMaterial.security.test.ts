import { randomBytes } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import request from 'supertest';
import { newPlanId } from '@yieldrouter/schemas';
import { insertPlan } from '@yieldrouter/ledger';
import { memoryLogger } from './testing/memoryLogger';
import type { TestApp } from './testing/startTestApp';
import { SAMPLE_ADDRESSES, startTestApp, testKeys } from './testing/startTestApp';

// Issue 16, findings 1–4 and 9: key material is refused on every route (never stored, never
// logged), control characters and malformed chain ids are 400s, and every body has a schema.

const PHRASE =
  'abandon ability able about above absent absorb abstract absurd abuse access accident';
const WORDS = PHRASE.split(' ');
const hex32 = () => randomBytes(32).toString('hex');

/** Fifteen ways a key or a phrase gets pasted (the probe's list). */
const KEY_FORMATS: Readonly<Record<string, () => string>> = {
  'bare hex (32 bytes)': hex32,
  'hex (64 bytes)': () => randomBytes(64).toString('hex'),
  '0x hex (64 bytes)': () => `0x${randomBytes(64).toString('hex')}`,
  'base58 Solana secret key': () => bs58.encode(Keypair.generate().secretKey),
  'JSON byte array (64)': () => JSON.stringify([...Keypair.generate().secretKey]),
  'JSON byte array (32)': () => JSON.stringify([...randomBytes(32)]),
  'base64 (32 bytes)': () => randomBytes(32).toString('base64'),
  'base64 (64 bytes)': () => randomBytes(64).toString('base64'),
  suiprivkey: () => `suiprivkey1qz${'q'.repeat(58)}`,
  xprv: () => `xprv9s21ZrQH143K${'2'.repeat(95)}`,
  '12 words': () => PHRASE,
  '13 words': () => `${PHRASE} zoo`,
  capitalised: () => WORDS.map((word) => word[0]?.toUpperCase() + word.slice(1)).join(' '),
  'comma-separated': () => WORDS.join(','),
  'key: prefix': () => `key:${hex32()}`,
};

let t: TestApp;
const { logger, lines } = memoryLogger();
beforeAll(async () => {
  t = await startTestApp(
    { SVC_RATE_LIMIT_PUBLIC: '100000', SVC_RATE_LIMIT_KEYED: '100000' },
    { logger },
  );
});
afterAll(async () => {
  await t.close();
});

const post = (path: string, body: unknown, key?: string) => {
  const call = request(t.app)
    .post(`/api/v1${path}`)
    .send(body as object);
  return key ? call.set('X-API-Key', key) : call;
};
const counts = async () => ({
  plans: await t.db.plan.count(),
  webhooks: await t.db.webhookSubscription.count(),
});

describe('key material is refused on every route, never stored, never logged', () => {
  it.each(Object.entries(KEY_FORMATS))(
    '%s as a plan owner or a webhook description',
    async (_name, make) => {
      const before = await counts();
      const value = make();
      for (const kind of ['deposit', 'withdraw']) {
        const res = await post(`/svc/strategies/${kind}/plan`, {
          strategyId: 'morpho',
          amountMicros: '1000000',
          owner: value,
        });
        expect([res.status, res.body.code, res.body.field]).toEqual([
          400,
          'KEY_MATERIAL_REFUSED',
          'body.owner',
        ]);
      }
      const hook = await post(
        '/svc/webhooks',
        {
          url: 'https://hooks.example.com/svc',
          eventTypes: ['deposit.settled'],
          description: value,
        },
        testKeys.owner,
      );
      expect([hook.status, hook.body.code]).toEqual([400, 'KEY_MATERIAL_REFUSED']);
      expect(await counts()).toEqual(before);
      expect(JSON.stringify(lines)).not.toContain(value.slice(0, 40));
    },
  );

  it.each([
    ['/wallets/0x1111111111111111111111111111111111111111/harvest', undefined],
    ['/svc/keeper/stats/refresh', testKeys.keeper],
    ['/svc/map/venues/refresh', testKeys.keeper],
  ])('a body with key-named fields on %s is refused', async (path, key) => {
    for (const name of ['privateKey', 'mnemonic', 'seed_phrase', 'secretKey']) {
      const res = await post(path, { [name]: 'x' }, key);
      expect([res.status, res.body.code, res.body.field]).toEqual([
        400,
        'KEY_MATERIAL_REFUSED',
        `body.${name}`,
      ]);
    }
  });

  it('deposit/execute refuses the four shapes that got past the first detector', async () => {
    for (const value of [
      KEY_FORMATS['capitalised'],
      KEY_FORMATS['comma-separated'],
      KEY_FORMATS['key: prefix'],
      KEY_FORMATS['13 words'],
    ]) {
      const res = await post('/svc/strategies/deposit/execute', {
        planId: newPlanId(),
        signedTransaction: value?.(),
      });
      expect([res.status, res.body.code]).toEqual([400, 'KEY_MATERIAL_REFUSED']);
    }
  });

  it('an EVM private key given as the owner of a Base plan is not stored (blocked, owner null)', async () => {
    const key = `0x${hex32()}`;
    const res = await post('/svc/strategies/deposit/plan', {
      strategyId: 'morpho',
      amountMicros: '1000000',
      owner: key,
    }).expect(200);
    expect(res.body.blockers.map((blocker: { code: string }) => blocker.code)).toContain(
      'owner_malformed',
    );
    const stored = await t.db.plan.findUniqueOrThrow({ where: { id: res.body.planId } });
    expect(JSON.stringify([stored.owner, stored.wallet, stored.request])).not.toContain(
      key.slice(2),
    );
  });

  it('a key in a path or a query is refused and masked in the access log', async () => {
    const key = hex32();
    const res = await post(`/wallets/${key}/harvest`, {});
    expect([res.status, res.body.code, res.body.field]).toEqual([
      400,
      'KEY_MATERIAL_REFUSED',
      'path.address',
    ]);
    const query = await request(t.app).get(`/api/v1/svc/portfolio?wallet=${key}`);
    expect([query.status, query.body.code]).toEqual([400, 'KEY_MATERIAL_REFUSED']);
    expect(JSON.stringify(lines)).not.toContain(key);
    expect(lines.join('')).toContain('/wallets/[redacted]/harvest');
    // A Sui address has a key's shape; as a wallet it is an address, and kept.
    await post(`/wallets/${SAMPLE_ADDRESSES.sui}/harvest`, {}).expect(200);
    expect(lines.join('')).toContain(SAMPLE_ADDRESSES.sui);
  });
});

describe('headers carry no key material either (fuzzer findings)', () => {
  it('a key-shaped X-Request-Id is replaced, neither echoed nor logged', async () => {
    const key = hex32();
    const res = await request(t.app).get('/api/v1/svc/status').set('X-Request-Id', key);
    expect(res.headers['x-request-id']).toMatch(/^req_/);
    expect(lines.join('')).not.toContain(key);
    const plain = await request(t.app).get('/api/v1/svc/status').set('X-Request-Id', 'trace-42');
    expect(plain.headers['x-request-id']).toBe('trace-42');
  });

  it('a key-shaped Idempotency-Key is refused and not stored', async () => {
    const before = await t.db.idempotencyKey.count();
    // A 32-byte hex key is a retry token (issue 41: stored as its digest); 64 bytes is a key.
    for (const value of [PHRASE, randomBytes(64).toString('hex')]) {
      const res = await post('/svc/strategies/deposit/plan', {
        strategyId: 'morpho',
        amountMicros: '1000000',
      }).set('Idempotency-Key', value);
      expect([res.status, res.body.code, res.body.field]).toEqual([
        400,
        'KEY_MATERIAL_REFUSED',
        'header.Idempotency-Key',
      ]);
    }
    expect(await t.db.idempotencyKey.count()).toBe(before);
  });

  it('a body whose Content-Encoding does not decode is a 400, not a 500', async () => {
    const res = await request(t.app)
      .post('/api/v1/svc/strategies/deposit/plan')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .send('{"not":"gzip"}');
    expect([res.status, res.body.code]).toEqual([400, 'BAD_REQUEST']);
  });
});

describe('no 500 from any input', () => {
  it.each([
    [
      '/svc/strategies/deposit/plan',
      { strategyId: 'morpho', amountMicros: '1', owner: 'a\u0000b' },
      'body.owner',
    ],
    [
      '/svc/strategies/withdraw/plan',
      { strategyId: 'morpho', amountMicros: '1', owner: 'a\u0000b' },
      'body.owner',
    ],
    [`/svc/plans/${newPlanId()}/legs/0/settle`, { txId: 'a\u0000b' }, 'body.txId'],
  ])('a NUL byte on %s is a 400 naming the field', async (path, body, field) => {
    const res = await post(path, body, testKeys.owner);
    expect([res.status, res.body.code, res.body.field]).toEqual([400, 'BAD_REQUEST', field]);
  });

  it('a NUL byte in a webhook description is a 400', async () => {
    const res = await post(
      '/svc/webhooks',
      {
        url: 'https://hooks.example.com/svc',
        eventTypes: ['deposit.settled'],
        description: 'a\u0000b',
      },
      testKeys.owner,
    );
    expect([res.status, res.body.field]).toEqual([400, 'body.description']);
  });

  it('a malformed Sui txId on settle is a 400 naming body.txId', async () => {
    const owner = SAMPLE_ADDRESSES.sui;
    const planId = newPlanId();
    await insertPlan(t.db, {
      id: planId,
      kind: 'route',
      status: 'prepared',
      chain: 'sui',
      venueId: null,
      owner,
      wallet: owner,
      amountMicros: 1_000_000n,
      feeMicros: 0n,
      request: {},
      blockers: [],
      legs: [
        {
          action: 'deposit',
          summary: 'route 1 USDC',
          amountMicros: 1_000_000n,
          settles: true,
          payload: {},
          effect: 'fund_liquid',
        },
      ],
    });
    for (const txId of ['0xabc', 'not_base58_0OIl']) {
      const res = await post(`/svc/plans/${planId}/legs/0/settle`, { txId }, testKeys.keeper);
      expect([res.status, res.body.code, res.body.field]).toEqual([
        400,
        'BAD_REQUEST',
        'body.txId',
      ]);
    }
  });
});

describe('a schema for every body, with bounds', () => {
  const swap = {
    chain: 'solana',
    inputToken: 'USDC',
    outputToken: 'WSOL',
    amountInMicros: '1000000',
    owner: SAMPLE_ADDRESSES.solana,
  };
  it.each([-1, 501, 1_000_000])('slippageBps %d is refused by the schema', async (slippageBps) => {
    const res = await post('/svc/jupiter/plan', { ...swap, slippageBps });
    expect([res.status, res.body.field]).toEqual([400, 'body.slippageBps']);
  });

  it('auto-pay weights are 0..10000 bps each and add up to exactly 10000', async () => {
    const payee = (payeeId: string, weightBps: number) => ({
      payeeId,
      address: SAMPLE_ADDRESSES.base,
      weightBps,
    });
    const cases = [[payee('a', -5000)], [payee('a', 10_001)], [payee('a', 6000), payee('b', 6000)]];
    for (const payees of cases) {
      const res = await request(t.app)
        .put('/api/v1/wallets/0x1111111111111111111111111111111111111111/auto-pay')
        .set('X-API-Key', testKeys.owner)
        .send({ enabled: true, percentage: 10, trigger: 'manual', payees });
      expect(res.status).toBe(400);
      expect(res.body.field).toMatch(/^body\.payees/);
    }
  });

  it.each([
    ['/wallets/0x1111111111111111111111111111111111111111/harvest', undefined],
    ['/svc/keeper/stats/refresh', testKeys.keeper],
    ['/svc/map/venues/refresh', testKeys.keeper],
  ])('%s refuses unknown fields, arrays and deep nesting', async (path, key) => {
    const deep = `${'{"a":'.repeat(10_000)}{}${'}'.repeat(10_000)}`;
    for (const body of ['{"unknownField":1}', '[1,2,3]', deep]) {
      const call = request(t.app).post(`/api/v1${path}`).set('Content-Type', 'application/json');
      const res = await (key ? call.set('X-API-Key', key) : call).send(body);
      expect([res.status, res.body.code]).toEqual([400, 'BAD_REQUEST']);
    }
  });
});
