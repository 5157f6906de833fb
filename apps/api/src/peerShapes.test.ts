// Issue 41: the request shapes peer (v1) clients send, mapped to ours or refused with a 400 that
// names the field and says what to send instead; nothing is stored on a refusal.
import request from 'supertest';
import { AutoPayDocument, AutopilotState } from '@yieldrouter/schemas';
import * as testApp from './testing/startTestApp';

const { SAMPLE_ADDRESSES, TEST_WALLET, scopedTestKeys, startTestApp, testKeys } = testApp;

const SUI = `0x${'ef'.repeat(32)}`;
let t: testApp.TestApp;
beforeAll(async () => {
  t = await startTestApp({ SVC_API_KEYS: scopedTestKeys([TEST_WALLET, SUI]) });
});
afterAll(() => t?.close());

const post = (path: string, body: object) =>
  request(t.app).post(path).set('X-API-Key', testKeys.owner).send(body);
const wallet = (address: string, suffix: string) => `/api/v1/wallets/${address}${suffix}`;
const refusal = (res: request.Response) => [res.status, res.body.code, res.body.field];

describe('autopilot enable takes targetChain, the peer’s name for chain', () => {
  it('stores the chain it names', async () => {
    const res = await post(wallet(SUI, '/autopilot/enable'), { targetChain: 'sui' });
    expect(res.status).toBe(200);
    expect(AutopilotState.parse(res.body).policy).toMatchObject({ chain: 'sui', enabled: true });
    const both = await post(wallet(SUI, '/autopilot/enable'), {
      chain: 'sui',
      targetChain: 'sui',
    });
    expect(both.status).toBe(200);
  });

  it('refuses a Map chain, a chain not the wallet’s and a disagreement, naming targetChain', async () => {
    const map = await post(wallet(SUI, '/autopilot/enable'), { targetChain: 'base' });
    expect(refusal(map)).toEqual([400, 'BAD_REQUEST', 'body.targetChain']);
    expect(map.body.message).toContain('sui or solana');
    const notWallets = await post(wallet(SUI, '/autopilot/enable'), { targetChain: 'solana' });
    expect(refusal(notWallets)).toEqual([400, 'BAD_REQUEST', 'body.targetChain']);
    const disagree = await post(wallet(SUI, '/autopilot/enable'), {
      chain: 'sui',
      targetChain: 'solana',
    });
    expect(refusal(disagree)).toEqual([400, 'BAD_REQUEST', 'body.targetChain']);
  });
});

describe('POST …/auto-pay with the peer’s config shape writes the config', () => {
  const autoPay = wallet(TEST_WALLET, '/auto-pay');
  const payees = [{ payeeId: 'team', address: `0x${'22'.repeat(20)}`, weightBps: 10_000 }];

  it('needs payees while none are stored (400 body.payees), and stores nothing', async () => {
    const res = await post(autoPay, { enabled: true, percentage: 50 });
    expect(refusal(res)).toEqual([400, 'BAD_REQUEST', 'body.payees']);
    expect(await t.db.autoPayConfig.count()).toBe(0);
  });

  it('maps enabled and percentage (percent, as ours) over the stored config', async () => {
    // Each write answers the auto-pay document with the config it stored.
    for (const [body, stored] of [
      [
        { enabled: false, percentage: 10, payees },
        { enabled: false, percentage: 10, trigger: 'manual', payees },
      ],
      [
        { enabled: true, percentage: 50, dustMicros: '7' },
        { enabled: true, percentage: 50, dustMicros: '7', payees },
      ],
    ] as const) {
      const res = await post(autoPay, body);
      expect(res.status).toBe(200);
      expect(AutoPayDocument.parse(res.body).config).toMatchObject(stored);
    }
    const read = await request(t.app).get(autoPay).set('X-API-Key', testKeys.owner);
    expect(read.body.config).toMatchObject({ enabled: true, percentage: 50 });
  });

  it.each([
    ['a percentage over 100', { enabled: true, percentage: 101 }, 'body.percentage'],
    ['a fractional percentage', { enabled: true, percentage: 12.5 }, 'body.percentage'],
    ['a config field without enabled', { percentage: 50 }, 'body.percentage'],
    ['a run target with enabled', { enabled: true, chain: 'base' }, 'body.chain'],
    ['legacy targets (labels, no address)', { enabled: true, targets: ['x'] }, 'body.targets'],
  ])('refuses %s naming the field, changing nothing', async (_name, body, field) => {
    const before = await request(t.app).get(autoPay).set('X-API-Key', testKeys.owner);
    const res = await post(autoPay, body);
    expect(refusal(res)).toEqual([400, 'BAD_REQUEST', field]);
    const after = await request(t.app).get(autoPay).set('X-API-Key', testKeys.owner);
    expect(after.body.config).toEqual(before.body.config);
  });

  it('still runs auto-pay without enabled', async () => {
    const run = await post(autoPay, {});
    // Nothing harvested yet: the run's own refusal, not a shape error.
    expect(run.body.code).toBe('AUTO_PAY_NOTHING_PAYABLE');
  });
});

describe('the public auto-pay plan with the peer’s default {} body', () => {
  it('says to name the wallet or use the wallet route', async () => {
    const res = await request(t.app).post('/api/v1/svc/auto-pay/plan').send({});
    expect(refusal(res)).toEqual([400, 'BAD_REQUEST', 'body.wallet']);
    expect(res.body.message).toContain('/auto-pay/preview');
  });
});

describe('native tokens by symbol in swap plans', () => {
  const swap = (path: string, chain: 'solana' | 'base' | 'arbitrum' | 'sui', change: object) =>
    request(t.app)
      .post(path)
      .send({
        chain,
        owner: SAMPLE_ADDRESSES[chain],
        inputToken: 'USDC',
        outputToken: 'USDC',
        amountInMicros: '1000000',
        ...change,
      });

  it.each([
    ['sol', '/api/v1/svc/jupiter/plan', 'solana', 'WSOL'],
    ['ETH', '/api/v1/svc/evm/swap/plan', 'base', 'WETH'],
    [`0x${'Ee'.repeat(20)}`, '/api/v1/svc/evm/swap/plan', 'arbitrum', 'WETH'],
    ['SUI', '/api/v1/svc/cetus/plan', 'sui', 'SUI'],
  ] as const)(
    '%s out: a plan that swaps into %s (here blocked: no source)',
    async (token, path, chain, swapped) => {
      const res = await swap(path, chain, { outputToken: token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'blocked', outputToken: swapped });
    },
  );

  it.each([
    ['SOL', '/api/v1/svc/jupiter/plan', 'solana', 'WSOL'],
    ['eth', '/api/v1/svc/evm/swap/plan', 'base', 'WETH'],
    [`0x${'Ee'.repeat(20)}`, '/api/v1/svc/evm/swap/plan', 'arbitrum', 'WETH'],
  ] as const)(
    '%s in via %s: a plan that wraps it and swaps %s (here blocked: no source)',
    async (token, path, chain, wrapped) => {
      const res = await swap(path, chain, { inputToken: token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        status: 'blocked',
        inputToken: wrapped,
        outputToken: 'USDC',
      });
    },
  );
});
