import request from 'supertest';
import { AUTO_PAY_MAX_PAYEES, AutoPayDocument } from '@yieldrouter/schemas';
import type { TestApp } from './testing/startTestApp';
import { SAMPLE_ADDRESSES, TEST_WALLET, startTestApp, testKeys } from './testing/startTestApp';

// Auto-pay config: bad input is 400 naming the field and stores nothing; an agent reads the
// config but never changes it; a run with nothing configured or nothing harvested is refused.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const path = `/api/v1/wallets/${TEST_WALLET}/auto-pay`;
const payee = (index: number, weightBps: number, address?: string) => ({
  payeeId: `p${index}`,
  address: address ?? `0x${(index + 16).toString(16).padStart(40, '0')}`,
  weightBps,
});
const valid = {
  enabled: true,
  percentage: 50,
  payees: [payee(1, 6_000), payee(2, 4_000)],
  trigger: 'threshold',
  minAmountMicros: '5000000',
  maxPerPayeePerDayMicros: '100000000',
  dustMicros: '1000',
};
const put = (body: object, key: string = testKeys.owner) =>
  request(t.app).put(path).set('X-API-Key', key).send(body);
const stored = () => t.db.autoPayConfig.count();

describe('PUT /wallets/{address}/auto-pay refuses bad input, storing nothing', () => {
  it.each([
    ['percentage above 100', { percentage: 101 }, 'body.percentage'],
    ['percentage below 0', { percentage: -1 }, 'body.percentage'],
    ['a fractional percentage', { percentage: 12.5 }, 'body.percentage'],
    ['weights short of 10000', { payees: [payee(1, 6_000), payee(2, 3_999)] }, 'body.payees'],
    ['weights over 10000', { payees: [payee(1, 6_000), payee(2, 4_001)] }, 'body.payees'],
    [
      'a duplicate payee id',
      { payees: [payee(1, 5_000), { ...payee(2, 5_000), payeeId: 'p1' }] },
      'body.payees.1.payeeId',
    ],
    [
      'a duplicate payee address (any letter case)',
      {
        payees: [
          payee(1, 5_000, SAMPLE_ADDRESSES.base),
          payee(2, 5_000, SAMPLE_ADDRESSES.base.toLowerCase()),
        ],
      },
      'body.payees.1.address',
    ],
    [
      'a payee address of another chain',
      { payees: [payee(1, 5_000), payee(2, 5_000, SAMPLE_ADDRESSES.solana)] },
      'body.payees.1.address',
    ],
    [
      'the wallet paying itself',
      { payees: [payee(1, 5_000), payee(2, 5_000, TEST_WALLET)] },
      'body.payees.1.address',
    ],
    [
      `more than ${AUTO_PAY_MAX_PAYEES} payees`,
      {
        payees: Array.from({ length: AUTO_PAY_MAX_PAYEES + 1 }, (_, index) =>
          payee(index, index === 0 ? 10_000 - AUTO_PAY_MAX_PAYEES : 1),
        ),
      },
      'body.payees',
    ],
    ['no payee', { payees: [] }, 'body.payees'],
    ['an unknown trigger', { trigger: 'hourly' }, 'body.trigger'],
    ['a float amount', { dustMicros: '1.5' }, 'body.dustMicros'],
  ])('%s → 400 naming %s', async (_, change, field) => {
    const res = await put({ ...valid, ...change }).expect(400);
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', field });
    expect(await stored()).toBe(0);
  });

  it('an agent may read the config but not change it (403); the owner sets it', async () => {
    const refused = await put(valid, testKeys.agent).expect(403);
    expect(refused.body.code).toBe('UNAUTHORIZED');
    expect(await stored()).toBe(0);
    const set = AutoPayDocument.parse((await put(valid).expect(200)).body);
    expect(set.config).toMatchObject({
      enabled: true,
      percentage: 50,
      trigger: 'threshold',
      minAmountMicros: '5000000',
      emergencyPause: false,
      payees: [
        { payeeId: 'p1', weightBps: 6_000 },
        { payeeId: 'p2', weightBps: 4_000 },
      ],
    });
    const read = await request(t.app).get(path).set('X-API-Key', testKeys.agent).expect(200);
    expect(AutoPayDocument.parse(read.body)).toMatchObject({
      config: set.config,
      payableMicros: '0',
      positions: [],
      next: null,
    });
    const audit = await request(t.app)
      .get(`/api/v1/wallets/${TEST_WALLET}/audit`)
      .set('X-API-Key', testKeys.owner)
      .expect(200);
    expect(audit.body.events.map((event: { operation: string }) => event.operation)).toContain(
      'setAutoPay',
    );
  });

  it('a run with nothing harvested is refused; paused is refused as off; the plan says why', async () => {
    const run = () => request(t.app).post(path).set('X-API-Key', testKeys.owner).send({});
    expect((await run().expect(422)).body.code).toBe('AUTO_PAY_NOTHING_PAYABLE');
    await put({ ...valid, emergencyPause: true }).expect(200);
    expect((await run().expect(422)).body.code).toBe('AUTO_PAY_OFF');
    const quote = await request(t.app)
      .post('/api/v1/svc/auto-pay/plan')
      .send({ wallet: TEST_WALLET })
      .expect(200);
    expect(quote.body).toMatchObject({
      status: 'blocked',
      stored: false,
      split: null,
      blockers: [expect.objectContaining({ code: 'auto_pay_off' })],
    });
    expect(await t.db.plan.count({ where: { kind: 'auto_pay' } })).toBe(0);
  });
});
