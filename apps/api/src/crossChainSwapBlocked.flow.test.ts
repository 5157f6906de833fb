import request from 'supertest';
import type { Test } from 'supertest';
import { DepositPlanDocument } from '@yieldrouter/schemas';
import { anvilAccount } from '@yieldrouter/chain-beds/evm';
import type { TestApp } from './testing/startTestApp';
import { startTestApp } from './testing/startTestApp';
import { itBlocksOnQuoteFaults } from './testing/swapTestTables';
import { crossChainSwapSettings, useCrossChainSwapBeds } from './testing/crossChainSwapBeds';

// The swap before the bridge blocked (issue 18, item 5, "bridge → (swap) → deposit"): the owner's
// WETH on Base, the venue (fluid) on Arbitrum, `bridge: true`. The deposit plan and the stake route
// share the swap → bridge → deposit sequence; each case runs on both. A swap that cannot be priced
// blocks the plan with its reason: no bridge priced or stored, nothing reserved or booked.
const owner = anvilAccount(7);
const ownerKey = 'test-xswap-owner-0123456789abcdef';
const WETH_IN = 10n ** 16n; // 0.01 WETH ≈ 30 USDC at the bed pair's 3,000 USDC/WETH

const beds = useCrossChainSwapBeds({ address: owner.address, key: ownerKey });

const fromWeth = {
  amountMicros: String(WETH_IN),
  token: 'WETH',
  sourceChain: 'base',
  bridge: true,
};
type Send = (body?: Record<string, unknown>, app?: TestApp) => Test;
const depositPlan: Send = (body = {}, app = beds().t) =>
  request(app.app)
    .post('/api/v1/svc/strategies/deposit/plan')
    .send({ strategyId: 'fluid', owner: owner.address, ...fromWeth, ...body });
const route: Send = (body = {}, app = beds().t) =>
  request(app.app)
    .post(`/api/v1/wallets/${owner.address}/route`)
    .set('X-API-Key', ownerKey)
    .send({ chain: 'arbitrum', stake: true, ...fromWeth, ...body });

// What each blocked document shows besides: the route reserves nothing.
const senders: [string, Send, Record<string, unknown>][] = [
  ['deposit plan', depositPlan, {}],
  ['route', route, { kind: 'route', pendingInMicros: '0' }],
];

describe.each(senders)(
  '%s from WETH with bridge: true, the swap on Base blocked',
  (_, send, more) => {
    // The swap source down: blocked with its reason; no bridge priced, nothing stored to bridge.
    itBlocksOnQuoteFaults({
      app: () => beds().t,
      noRoute: 'no_liquidity',
      setMode: (mode) => beds().fake.setMode(mode),
      send: () => send(),
      parse: (body) => DepositPlanDocument.parse(body),
      unpriced: ['quotedAmountOutMicros', 'depositMicros', 'bridge'],
      blocked: { inputToken: 'WETH', chain: 'arbitrum', ...more },
    });

    it('a swap source fault stores no bridge transfer', async () => {
      const { t, fake } = beds();
      fake.setMode('http_500');
      const plan = DepositPlanDocument.parse((await send().expect(200)).body);
      expect(plan.status).toBe('blocked');
      expect(await t.db.bridgeTransfer.count({ where: { planId: plan.planId ?? '' } })).toBe(0);
    });

    it('an unknown token on the source chain: 400 naming body.token, nothing stored', async () => {
      const { t } = beds();
      const before = await t.db.plan.count();
      const res = await send({ token: 'DOGE' }).expect(400);
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST' });
      expect(`${res.body.field ?? ''} ${res.body.message}`).toContain('body.token');
      expect(await t.db.plan.count()).toBe(before);
    });
  },
);

describe('cross-chain deposit and route from WETH without a swap source on the source chain', () => {
  let bare: TestApp;
  beforeAll(async () => {
    bare = await startTestApp(
      crossChainSwapSettings(beds().cctp, { address: owner.address, key: ownerKey }),
    );
  });
  afterAll(() => bare.close());

  it.each(senders)(
    '%s: blocked quote_source_not_configured naming the settings; nothing bridged',
    async (_, send, more) => {
      const plan = DepositPlanDocument.parse((await send({}, bare).expect(200)).body);
      expect(plan).toMatchObject({ status: 'blocked', inputToken: 'WETH', ...more });
      expect(plan.blockers?.map((entry) => [entry.code, entry.field])).toEqual([
        ['quote_source_not_configured', 'SVC_ZEROX_BASE_URL'],
        ['quote_source_not_configured', 'SVC_BASE_SWAP_FEE_RECIPIENT'],
      ]);
      expect(plan.bridge).toBeUndefined();
      expect(await bare.db.bridgeTransfer.count()).toBe(0);
      expect(await bare.db.journalEntry.count()).toBe(0);
    },
  );
});
