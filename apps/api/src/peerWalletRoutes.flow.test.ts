import request from 'supertest';
import {
  AuditTrailDocument,
  AutoPayPayeesDocument,
  AutoPayPlanDocument,
  AutopilotDecision,
} from '@yieldrouter/schemas';
import type { TestApp } from './testing/startTestApp';
import {
  OTHER_WALLET,
  SAMPLE_ADDRESSES,
  TEST_WALLET,
  startTestApp,
  testKeys,
} from './testing/startTestApp';

// Issue 41: the wallet routes peer clients call, each a view of or an alias over a route or use
// case we have. Every one of these paths answered 404 before.

const SUI = `0x${'cd'.repeat(32)}`;
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    SVC_API_KEYS: JSON.stringify([
      { key: testKeys.owner, role: 'owner', wallets: [TEST_WALLET, SUI] },
      { key: testKeys.agent, role: 'agent', wallets: [TEST_WALLET, SUI] },
    ]),
  });
});
afterAll(() => t?.close());

const as = (key: string) => ({
  get: (path: string) => request(t.app).get(path).set('X-API-Key', key),
  post: (path: string, body: object = {}) =>
    request(t.app).post(path).set('X-API-Key', key).send(body),
  put: (path: string, body: object) => request(t.app).put(path).set('X-API-Key', key).send(body),
});
const owner = () => as(testKeys.owner);
const wallet = (address: string, suffix: string) => `/api/v1/wallets/${address}${suffix}`;
/** The plan `res` answered is the one the strategy route prepares for the same request. */
async function expectSamePlan(
  res: request.Response,
  kind: 'deposit' | 'withdraw',
  body: { opportunityId: string; amountMicros: string; owner: string },
) {
  expect(res.status).toBe(200);
  const direct = await request(t.app).post(`/api/v1/svc/strategies/${kind}/plan`).send(body);
  expect(direct.status).toBe(200);
  for (const field of ['opportunityId', 'status', 'kind', 'chain']) {
    expect(res.body[field]).toEqual(direct.body[field]);
  }
}

const payee = (payeeId: string, weightBps: number) => ({
  payeeId,
  address: `0x${payeeId.charCodeAt(0).toString(16).padStart(40, '0')}`,
  weightBps,
});

describe('auto-pay payees, preview and trigger', () => {
  const payees = wallet(TEST_WALLET, '/auto-pay/payees');

  it('reads no payees until a config is stored; PUT stores one disabled, paying nothing', async () => {
    const before = await owner().get(payees);
    expect(before.status).toBe(200);
    expect(AutoPayPayeesDocument.parse(before.body)).toMatchObject({
      configured: false,
      enabled: false,
      payees: [],
    });
    const put = await owner().put(payees, { payees: [payee('a', 10_000)] });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      configured: true,
      enabled: false,
      payees: [payee('a', 10_000)],
    });
    const config = await owner().get(wallet(TEST_WALLET, '/auto-pay'));
    expect(config.body.config).toMatchObject({ enabled: false, percentage: 0, trigger: 'manual' });
  });

  it('keeps the rest of a stored config when the payees change', async () => {
    const full = {
      enabled: true,
      percentage: 40,
      payees: [payee('a', 10_000)],
      trigger: 'threshold',
      minAmountMicros: '5000000',
      dustMicros: '1000',
    };
    expect((await owner().put(wallet(TEST_WALLET, '/auto-pay'), full)).status).toBe(200);
    const put = await owner().put(payees, { payees: [payee('b', 2_500), payee('c', 7_500)] });
    expect(put.status).toBe(200);
    const { body } = await owner().get(wallet(TEST_WALLET, '/auto-pay'));
    expect(body.config).toMatchObject({
      enabled: true,
      percentage: 40,
      trigger: 'threshold',
      minAmountMicros: '5000000',
      dustMicros: '1000',
      payees: [payee('b', 2_500), payee('c', 7_500)],
    });
    expect((await as(testKeys.agent).get(payees)).body.payees).toHaveLength(2);
  });

  it('a payees PUT beside a whole-config PUT loses neither write', async () => {
    // The payees PUT reads the stored config and writes it back with new payees; read outside
    // the whole-config writer's transaction, it would write back the percentage it replaced.
    for (let round = 1; round <= 8; round += 1) {
      const [whole, part] = await Promise.all([
        owner().put(wallet(TEST_WALLET, '/auto-pay'), {
          enabled: true,
          percentage: round,
          payees: [payee('a', 10_000)],
          trigger: 'manual',
        }),
        owner().put(payees, { payees: [payee('b', 5_000), payee('c', 5_000)] }),
      ]);
      expect([whole.status, part.status]).toEqual([200, 200]);
      const { body } = await owner().get(wallet(TEST_WALLET, '/auto-pay'));
      expect(body.config.percentage).toBe(round);
    }
  });

  it('refuses bad payees naming the field, and an agent key', async () => {
    const short = await owner().put(payees, { payees: [payee('a', 9_999)] });
    expect(short.status).toBe(400);
    expect(short.body.field).toBe('body.payees');
    const none = await owner().put(payees, { payees: [] });
    expect(none.body.field).toBe('body.payees');
    const agent = await as(testKeys.agent).put(payees, { payees: [payee('a', 10_000)] });
    expect([agent.status, agent.body.code]).toEqual([403, 'UNAUTHORIZED']);
  });

  it('previews a run as POST /svc/auto-pay/plan does for the wallet', async () => {
    const preview = await as(testKeys.agent).post(wallet(TEST_WALLET, '/auto-pay/preview'));
    expect(preview.status).toBe(200);
    const plan = await request(t.app)
      .post('/api/v1/svc/auto-pay/plan')
      .send({ wallet: TEST_WALLET });
    expect(AutoPayPlanDocument.parse(preview.body)).toEqual(plan.body);
  });

  it('triggers a run at …/auto-pay/trigger exactly as POST …/auto-pay answers', async () => {
    const trigger = await owner().post(wallet(TEST_WALLET, '/auto-pay/trigger'));
    const run = await owner().post(wallet(TEST_WALLET, '/auto-pay'));
    expect(trigger.status).toBe(run.status);
    expect(trigger.body.code).toBe(run.body.code);
    expect(trigger.body.code).toBeDefined();
  });
});

describe('auto-yield stake and unstake', () => {
  it('stakes into a named venue: the deposit plan for this owner', async () => {
    const res = await owner().post(wallet(TEST_WALLET, '/auto-yield/stake'), {
      amountMicros: '2000000',
      venue: 'morpho',
    });
    await expectSamePlan(res, 'deposit', {
      opportunityId: 'morpho',
      amountMicros: '2000000',
      owner: TEST_WALLET,
    });
  });

  it('stakes without a venue as a route with stake does', async () => {
    const res = await owner().post(wallet(SUI, '/auto-yield/stake'), {
      amountMicros: '1000000',
      chain: 'sui',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: 'route', chain: 'sui' });
  });

  it('refuses a venue on another chain than body.chain, and an agent key', async () => {
    const res = await owner().post(wallet(TEST_WALLET, '/auto-yield/stake'), {
      amountMicros: '1000000',
      venue: 'morpho',
      chain: 'arbitrum',
    });
    expect([res.status, res.body.field]).toEqual([400, 'body.venue']);
    const agent = await as(testKeys.agent).post(wallet(TEST_WALLET, '/auto-yield/stake'), {
      amountMicros: '1000000',
    });
    expect(agent.status).toBe(403);
  });

  it("unstakes from the wallet's auto-yield venue, or names body.venue when there is none", async () => {
    const none = await owner().post(wallet(TEST_WALLET, '/auto-yield/unstake'), {
      amountMicros: '1000000',
    });
    expect([none.status, none.body.field]).toEqual([400, 'body.venue']);
    const set = await owner().put(wallet(TEST_WALLET, '/auto-yield'), {
      enabled: true,
      targetVenue: 'aave-v3',
    });
    expect(set.status).toBe(200);
    const res = await owner().post(wallet(TEST_WALLET, '/auto-yield/unstake'), {
      amountMicros: '1000000',
    });
    await expectSamePlan(res, 'withdraw', {
      opportunityId: 'aave-v3',
      amountMicros: '1000000',
      owner: TEST_WALLET,
    });
  });
});

describe('one autopilot decision by id', () => {
  it("answers the decision the history lists, and 404 for another wallet's", async () => {
    const preview = await owner().post(wallet(SUI, '/autopilot/preview'), { chain: 'sui' });
    expect(preview.status).toBe(200);
    const id = String(preview.body.decisionId);
    const res = await as(testKeys.agent).get(wallet(SUI, `/autopilot/history/${id}`));
    expect(res.status).toBe(200);
    expect(AutopilotDecision.parse(res.body)).toEqual(preview.body);
    const other = await owner().get(wallet(TEST_WALLET, `/autopilot/history/${id}`));
    expect([other.status, other.body.code, other.body.field]).toEqual([
      404,
      'AUTOPILOT_DECISION_NOT_FOUND',
      'path.decisionId',
    ]);
    for (const id of ['d1', 'apd_x', 'apd_9223372036854775807', 'apd_99999999999999999999']) {
      const bad = await owner().get(wallet(SUI, `/autopilot/history/${id}`));
      expect([bad.status, bad.body.field]).toEqual([400, 'path.decisionId']);
    }
    // The largest id a row can have is read, not refused.
    const last = await owner().get(wallet(SUI, '/autopilot/history/apd_9223372036854775806'));
    expect([last.status, last.body.code]).toEqual([404, 'AUTOPILOT_DECISION_NOT_FOUND']);
  });
});

describe('the Solana stake plan', () => {
  it('is the deposit plan of a Solana venue; a venue elsewhere is 400 naming body.venue', async () => {
    const body = { owner: SAMPLE_ADDRESSES.solana, amountMicros: '1000000', venue: 'kamino' };
    const res = await request(t.app).post('/api/v1/svc/solana/stake/plan').send(body);
    await expectSamePlan(res, 'deposit', {
      opportunityId: 'kamino',
      amountMicros: '1000000',
      owner: SAMPLE_ADDRESSES.solana,
    });
    expect(res.body.chain).toBe('solana');
    const elsewhere = await request(t.app)
      .post('/api/v1/svc/solana/stake/plan')
      .send({ ...body, venue: 'morpho' });
    expect([elsewhere.status, elsewhere.body.field]).toEqual([400, 'body.venue']);
  });
});

describe('wallet page and audits: the portfolio and audit routes with the wallet in the query', () => {
  it('answers what the wallet routes answer', async () => {
    const page = await owner().get(`/api/v1/svc/wallet-page?wallet=${TEST_WALLET}`);
    const portfolio = await owner().get(wallet(TEST_WALLET, '/portfolio'));
    expect(page.status).toBe(200);
    // The same document but for when it was read.
    const timeless = (body: unknown) =>
      JSON.parse(JSON.stringify(body, (key, value: unknown) => (key === 'asOf' ? null : value)));
    expect(timeless(page.body)).toEqual(timeless(portfolio.body));
    const audits = await owner().get(`/api/v1/svc/audits?wallet_address=${TEST_WALLET}&limit=5`);
    const audit = await owner().get(wallet(TEST_WALLET, '/audit?limit=5'));
    expect(audits.status).toBe(200);
    expect(AuditTrailDocument.parse(audits.body)).toEqual(audit.body);
    expect(audits.body.events.length).toBeGreaterThan(0);
  });

  it('refuses a wallet outside the key, naming the query field', async () => {
    const page = await owner().get(`/api/v1/svc/wallet-page?wallet=${OTHER_WALLET}`);
    expect([page.status, page.body.code, page.body.field]).toEqual([
      403,
      'WALLET_SCOPE',
      'query.wallet',
    ]);
    const audits = await owner().get(`/api/v1/svc/audits?wallet_address=${OTHER_WALLET}`);
    expect([audits.status, audits.body.field]).toEqual([403, 'query.wallet_address']);
    expect(
      (await request(t.app).get(`/api/v1/svc/audits?wallet_address=${TEST_WALLET}`)).status,
    ).toBe(401);
  });
});
