import request from 'supertest';
import { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import { decodeFunctionData } from 'viem';
import type { Hex } from 'viem';
import { verifyLedger } from '@yieldrouter/ledger';
import { DepositPlanDocument, StoredPlanDocument } from '@yieldrouter/schemas';
import { anvilAccounts } from '@yieldrouter/chain-beds/evm';
import { deployYieldRouter } from '@yieldrouter/chain-beds/solana';
import type { TestApp } from './testing/startTestApp';
import { startTestApp, testKeys } from './testing/startTestApp';
import { CCTP_BURN_ABI, startCctpSolanaSuiBeds } from './testing/cctpSolanaSuiBeds';
import type { CctpSolanaSuiBeds } from './testing/cctpSolanaSuiBeds';
import { solanaBedSettings } from './testing/solanaBedSettings';
import { evmOwnerClients } from './testing/evmOwnerClients';
import { signAndSendLeg, stakedInVenue } from './testing/solanaRouterApp';

// A cross-chain deposit across chain families (issue 18, item 5): the owner's USDC on Base
// (an EVM address), the venue (kamino, our router's test venue on the Solana bed) on Solana
// (a base58 address). Nothing shows the two addresses are one owner's but an owner key listing
// both: sent along on the public deposit plan, or the route's own key. Without it: 422 naming
// body.sourceAddress, nothing stored.
const owner = anvilAccounts()[6];
if (!owner) throw new Error('no anvil account');
const solanaWallet = Keypair.generate();
const solanaOwner = solanaWallet.publicKey.toBase58();
const bothKey = `test-xfam-both-${Date.now()}`;
const solanaOnlyKey = `test-xfam-solana-${Date.now()}`;

let beds: CctpSolanaSuiBeds;
let t: TestApp;

beforeAll(async () => {
  beds = await startCctpSolanaSuiBeds(Keypair.generate().publicKey.toBase58());
  const router = deployYieldRouter(beds.solana);
  await beds.base.fixtures.mintUsdc(owner.address, 500_000_000n);
  beds.solana.airdrop(solanaWallet.publicKey, 2_000_000_000n);
  // A wallet that ever held USDC has its USDC account: the bridge's mint pays into it.
  beds.solana.mintUsdc(solanaWallet.publicKey, 0n);
  t = await startTestApp({
    ...beds.settings,
    ...solanaBedSettings(beds.solana, router),
    SVC_SOLANA_NETWORK: 'localnet',
    SVC_SOLANA_UPGRADE_AUTHORITY: router.admin,
    SVC_SOLANA_EXECUTION_ENABLED: 'true',
    SVC_VENUE_IDS: JSON.stringify({ kamino: router.kamino.ids }),
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
const plansOf = () => t.db.plan.count({ where: { wallet: solanaOwner } });

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
    const transfer = await t.db.bridgeTransfer.findUnique({
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
    // The deposit leg before the delivery: 409, nothing recorded (the end to end run is below).
    const early = await request(t.app)
      .post(`/api/v1/svc/plans/${plan.planId}/legs/3/settle`)
      .set('X-API-Key', testKeys.keeper)
      .send({ txId: bs58.encode(Buffer.alloc(64, 7)) })
      .expect(409);
    expect(early.body).toMatchObject({ code: 'BRIDGE_NOT_DELIVERED' });
    expect(await t.db.journalEntry.count({ where: { planId: plan.planId ?? '' } })).toBe(0);
  });
});

const settle = (planId: string | undefined, index: number, txId: string) =>
  request(t.app)
    .post(`/api/v1/svc/plans/${planId}/legs/${index}/settle`)
    .set('X-API-Key', testKeys.keeper)
    .send({ txId });
const deliver = (body: Record<string, unknown>) =>
  request(t.app).post('/api/v1/svc/bridge/delivery').set('X-API-Key', testKeys.keeper).send(body);
const balance = async (wallet: string, chain: string, bucket: string) =>
  (await t.db.ledgerAccount.findFirst({ where: { wallet, chain, bucket } }))?.balanceMicros ?? 0n;

describe('cross-family deposit end to end on the beds (Base → Solana, kamino)', () => {
  it('burn on Base, mint on Solana credits liquid@solana, then the deposit stakes it', async () => {
    const plan = DepositPlanDocument.passthrough().parse(
      (await depositPlan(bothKey).expect(200)).body,
    );
    const planId = plan.planId ?? '';
    const legs = plan.legs ?? [];
    const depositMicros = BigInt(plan.depositMicros ?? '0');
    expect(depositMicros).toBe(24_975_000n);

    // The owner signs the fee transfer, the approve and the burn on Base; the keeper settles the
    // fee and the burn from their receipts: the burn is in flight on Base.
    const hashes = await evmOwnerClients(beds.base, owner.privateKey).sendLegs(legs.slice(0, 3));
    await settle(planId, 0, hashes[0] ?? '').expect(200);
    const burned = await settle(planId, 2, hashes[2] ?? '').expect(200);
    expect(burned.body).toMatchObject({ status: 'confirmed' });
    expect(await balance(owner.address, 'base', 'in_flight')).toBe(depositMicros);

    // The deposit leg before the delivery: 409, nothing recorded for it.
    const early = await settle(planId, 3, bs58.encode(Buffer.alloc(64, 9))).expect(409);
    expect(early.body).toMatchObject({ code: 'BRIDGE_NOT_DELIVERED' });
    const entries = await t.db.journalEntry.findMany({
      where: { planId },
      orderBy: { id: 'asc' },
    });
    expect(entries.map((entry) => entry.legIndex)).toEqual([0, 2]);

    // Attested; the mint leg on Solana, signed by the owner and sent on the bed.
    const next = await deliver({ planId }).expect(200);
    expect(next.body).toMatchObject({ bridgeStatus: 'in_flight', attestation: 'complete' });
    expect(next.body.mintLeg).toMatchObject({ action: 'mint', encoding: 'solana-v0-base64' });
    const usdcHeld = beds.solana.usdcBalance(solanaWallet.publicKey);
    const mintTx = signAndSendLeg(beds.solana, next.body.mintLeg, solanaWallet);
    expect(beds.solana.usdcBalance(solanaWallet.publicKey) - usdcHeld).toBe(depositMicros);
    const liquidBefore = await balance(solanaOwner, 'solana', 'liquid');
    const delivered = await deliver({ planId, destTxId: mintTx }).expect(200);
    expect(delivered.body).toMatchObject({
      bridgeStatus: 'delivered',
      credited: true,
      deliveredMicros: depositMicros.toString(),
    });
    expect(await balance(owner.address, 'base', 'in_flight')).toBe(0n);
    expect(await balance(solanaOwner, 'solana', 'liquid')).toBe(liquidBefore + depositMicros);

    // The deposit leg: signed by the owner, run on the Solana bed, settled from its receipt.
    const depositTx = signAndSendLeg(
      beds.solana,
      { transaction: legs[3]?.transaction },
      solanaWallet,
    );
    expect(beds.solana.usdcBalance(solanaWallet.publicKey)).toBe(usdcHeld);
    const deposited = await settle(planId, 3, depositTx).expect(200);
    expect(deposited.body).toMatchObject({ status: 'confirmed' });
    expect(await stakedInVenue(t, solanaOwner, 'kamino')).toBe(depositMicros.toString());
    // liquid@solana: what it was before the delivery, plus what it delivered, minus the deposit.
    const liquidAfter = await balance(solanaOwner, 'solana', 'liquid');
    expect(liquidAfter).toBe(liquidBefore + BigInt(delivered.body.deliveredMicros) - depositMicros);
    expect(liquidAfter).toBeGreaterThanOrEqual(0n);

    // The plan's journal conserves: what came in from outside (the fee and the burn on Base) is
    // what sits in liquid, in_flight, staked and fees, plus what the rail kept (none: standard).
    const postings = await t.db.posting.findMany({
      where: { entry: { planId } },
      include: { account: true },
    });
    const sum = (keep: (bucket: string, micros: bigint) => boolean) =>
      postings
        .filter((posting) => keep(posting.account.bucket, posting.amountMicros))
        .reduce((total, posting) => total + posting.amountMicros, 0n);
    const cameIn = -sum((bucket, micros) => bucket === 'external' && micros < 0n);
    const held = {
      liquid: sum((bucket) => bucket === 'liquid'),
      inFlight: sum((bucket) => bucket === 'in_flight'),
      staked: sum((bucket) => bucket.startsWith('staked:')),
      fees: sum((bucket) => bucket === 'fees:protocol'),
      railKept: sum((bucket, micros) => bucket === 'external' && micros > 0n),
    };
    expect(cameIn).toBe(25_000_000n);
    expect(held).toEqual({
      liquid: 0n,
      inFlight: 0n,
      staked: depositMicros,
      fees: 25_000n,
      railKept: 0n,
    });
    expect(Object.values(held).reduce((total, micros) => total + micros, 0n)).toBe(cameIn);
    expect((await verifyLedger(t.db)).problems).toEqual([]);
  });
});
