import request from 'supertest';
import { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import { decodeFunctionData } from 'viem';
import type { Hex } from 'viem';
import { DepositPlanDocument, StoredPlanDocument } from '@yieldrouter/schemas';
import { anvilAccounts } from '@yieldrouter/chain-beds/evm';
import { deployYieldRouter } from '@yieldrouter/chain-beds/solana';
import type { TestApp } from './testing/startTestApp';
import { startTestApp, testKeys } from './testing/startTestApp';
import { CCTP_BURN_ABI, startCctpSolanaSuiBeds } from './testing/cctpSolanaSuiBeds';
import type { CctpSolanaSuiBeds } from './testing/cctpSolanaSuiBeds';
import { solanaBedSettings } from './testing/solanaBedSettings';

// A cross-chain deposit across chain families (issue 18, item 5): the owner's USDC on Base
// (an EVM address), the venue (kamino, our router's test venue on the Solana bed) on Solana
// (a base58 address). Nothing shows the two addresses are one owner's but an owner key listing
// both: sent along on the public deposit plan, or the route's own key. Without it: 422 naming
// body.sourceAddress, nothing stored.
const owner = anvilAccounts()[6];
if (!owner) throw new Error('no anvil account');
const solanaOwner = Keypair.generate().publicKey.toBase58();
const bothKey = `test-xfam-both-${Date.now()}`;
const solanaOnlyKey = `test-xfam-solana-${Date.now()}`;

let beds: CctpSolanaSuiBeds;
let t: TestApp;

beforeAll(async () => {
  beds = await startCctpSolanaSuiBeds(Keypair.generate().publicKey.toBase58());
  const router = deployYieldRouter(beds.solana);
  t = await startTestApp({
    ...beds.settings,
    ...solanaBedSettings(beds.solana, router),
    SVC_SOLANA_NETWORK: 'localnet',
    SVC_SOLANA_UPGRADE_AUTHORITY: router.admin,
    SVC_SOLANA_EXECUTION_ENABLED: 'true',
    SVC_VENUE_IDS: JSON.stringify({ kamino: router.venue }),
    SVC_API_KEYS: JSON.stringify([
      { key: bothKey, role: 'owner', wallets: [owner.address, solanaOwner] },
      { key: solanaOnlyKey, role: 'owner', wallets: [solanaOwner] },
      { key: testKeys.owner, role: 'owner', wallets: ['*'] },
      { key: testKeys.keeper, role: 'keeper', wallets: ['*'] },
    ]),
  });
}, 180_000);
afterAll(async () => {
  await t?.close();
  await beds?.stop();
});

const fromBase = {
  amountMicros: '25000000',
  sourceChain: 'base',
  sourceAddress: owner.address,
  bridge: true,
};
const depositPlan = (key?: string) => {
  const call = request(t.app).post('/api/v1/svc/strategies/deposit/plan');
  return (key ? call.set('X-API-Key', key) : call).send({
    strategyId: 'kamino',
    owner: solanaOwner,
    ...fromBase,
  });
};
const route = (key: string) =>
  request(t.app)
    .post(`/api/v1/wallets/${solanaOwner}/route`)
    .set('X-API-Key', key)
    .send({ token: 'USDC', chain: 'solana', stake: true, ...fromBase });
const plansOf = () => t.db.prisma.plan.count({ where: { wallet: solanaOwner } });

describe('cross-family deposit (Base → Solana, kamino): the owner key proves the source', () => {
  it.each([
    ['deposit plan with no key', () => depositPlan()],
    ['deposit plan with a key listing only the Solana address', () => depositPlan(solanaOnlyKey)],
    ['route with a key listing only the Solana address', () => route(solanaOnlyKey)],
    ['deposit plan with a `*` key (it names no address)', () => depositPlan(testKeys.owner)],
  ])('%s: 422 naming body.sourceAddress and how to prove it', async (_, send) => {
    const before = await plansOf();
    const res = await send().expect(422);
    expect(res.body).toMatchObject({
      code: 'BRIDGE_DESTINATION_NOT_OWNER',
      field: 'body.sourceAddress',
    });
    expect(res.body.message).toContain('owner key');
    expect(res.body.message).toContain('listing both addresses');
    expect(await plansOf()).toBe(before);
  });

  it.each([
    ['deposit plan, the owner key sent along', () => depositPlan(bothKey)],
    ['route, with its owner key', () => route(bothKey)],
  ])('%s: bridge legs on Base, then the deposit legs on Solana', async (_, send) => {
    const res = await send().expect(200);
    const plan = DepositPlanDocument.passthrough().parse(res.body);
    expect(plan).toMatchObject({
      status: 'prepared',
      chain: 'solana',
      venueId: 'kamino',
      depositMicros: '24975000',
      bridge: {
        sourceChain: 'base',
        destChain: 'solana',
        sourceAddress: owner.address,
        destinationAddress: solanaOwner,
        minReceivedMicros: '24975000',
      },
    });
    const legs = plan.legs ?? [];
    expect(legs.map((leg) => leg.action)).toEqual(['transfer', 'approve', 'burn', 'deposit']);
    expect(legs.map((leg) => leg['chain'])).toEqual(['base', 'base', 'base', 'solana']);
    expect(legs.map((leg) => leg.settles)).toEqual([true, false, true, true]);
    // The burn mints on Solana's CCTP domain (5); the deposit deposits what it delivers at least.
    const burn = legs[2]?.transaction as { data: Hex } | undefined;
    expect(decodeFunctionData({ abi: CCTP_BURN_ABI, data: burn?.data ?? '0x' }).args[1]).toBe(5);
    expect(legs[3]?.amountMicros).toBe('24975000');
    // As stored: the same legs on the same chains, the bridge to the Solana owner.
    const stored = StoredPlanDocument.parse(
      (await request(t.app).get(`/api/v1/svc/plans/${plan.planId}`).expect(200)).body,
    );
    expect(stored.legs.map((leg) => [leg.action, leg.chain])).toEqual(
      legs.map((leg) => [leg.action, leg['chain']]),
    );
    const transfer = await t.db.prisma.bridgeTransfer.findUnique({
      where: { planId: plan.planId ?? '' },
    });
    expect(transfer).toMatchObject({
      sourceChain: 'base',
      destChain: 'solana',
      owner: owner.address,
      recipient: solanaOwner,
      minReceivedMicros: 24_975_000n,
      deliveredAt: null,
    });
    // The deposit leg before the delivery (no Solana CCTP bed runs it): 409, nothing recorded.
    const early = await request(t.app)
      .post(`/api/v1/svc/plans/${plan.planId}/legs/3/settle`)
      .set('X-API-Key', testKeys.keeper)
      .send({ txId: bs58.encode(Buffer.alloc(64, 7)) })
      .expect(409);
    expect(early.body).toMatchObject({ code: 'BRIDGE_NOT_DELIVERED' });
    expect(await t.db.prisma.journalEntry.count({ where: { planId: plan.planId ?? '' } })).toBe(0);
  });
});
