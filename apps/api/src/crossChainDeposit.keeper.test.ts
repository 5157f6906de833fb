import request from 'supertest';
import type { Address, Hex } from 'viem';
import { markLegSubmitted, verifyLedger } from '@yieldrouter/ledger';
import type { RunningKeeper } from '@yieldrouter/jobs';
import { waitFor } from '@yieldrouter/jobs/testing';
import { DepositPlanDocument } from '@yieldrouter/schemas';
import { startCctpBed } from '@yieldrouter/chain-beds/bridges';
import type { CctpBed } from '@yieldrouter/chain-beds/bridges';
import { anvilAccount } from '@yieldrouter/chain-beds/evm';
import type { TestApp } from './testing/startTestApp';
import { startTestApp, testKeys } from './testing/startTestApp';
import { settlementWatchKeeperSettings, startInApiKeeper } from './testing/startInApiKeeper';

// A cross-chain deposit settled by the keeper's settlement watch: the fee and burn legs from
// their receipts; the deposit leg, on chain already, waits (submitted, nothing booked) until the
// bridge's delivery is recorded, then settles out of the delivered liquid into the venue.
const owner = anvilAccount(7);
const FEE_RECIPIENT: Address = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720';

let cctp: CctpBed;
let t: TestApp;
let keeper: RunningKeeper | undefined;

beforeAll(async () => {
  cctp = await startCctpBed({ feeRecipient: FEE_RECIPIENT });
  await cctp.base.fixtures.mintUsdc(owner.address, 100_000_000n);
  t = await startTestApp({
    ...cctp.settings,
    ...settlementWatchKeeperSettings,
    SVC_KEEPER_BRIDGE_WATCH_EVERY_MS: '0',
    SVC_CCTP_TIMEOUT_MS: '1000',
    SVC_VENUE_IDS: JSON.stringify({ fluid: { vault: cctp.arbitrum.fixtures.vault } }),
    SVC_API_KEYS: JSON.stringify([{ key: testKeys.keeper, role: 'keeper', wallets: ['*'] }]),
  });
  keeper = await startInApiKeeper(t);
}, 120_000);
afterAll(async () => {
  await keeper?.close();
  await t?.close();
  await cctp?.stop();
});

const send = (side: 'base' | 'arbitrum', leg: unknown) =>
  cctp.send(
    side,
    (leg as { transaction: { to: string; data: Hex } }).transaction,
    owner.privateKey,
  );
const submitted = (planId: string, legIndex: number, txId: Hex) =>
  markLegSubmitted(t.db, { planId, legIndex, txId, now: new Date() });
const legStatus = async (planId: string, legIndex: number) =>
  (await t.db.planLeg.findUnique({ where: { planId_legIndex: { planId, legIndex } } }))?.status;
const balance = async (chain: string, bucket: string) =>
  (
    await t.db.ledgerAccount.findFirst({
      where: { wallet: owner.address, chain, bucket: { startsWith: bucket } },
    })
  )?.balanceMicros ?? 0n;

/** Waits until the leg has `status` (the keeper's watch runs every 200 ms). */
const legReaches = (planId: string, legIndex: number, status: string, what: string) =>
  waitFor(
    async () => ((await legStatus(planId, legIndex)) === status ? true : undefined),
    15_000,
    what,
  );

describe('cross-chain deposit under the keeper (Base → Arbitrum)', () => {
  it('the deposit leg waits for the delivery, then settles from liquid', async () => {
    const plan = DepositPlanDocument.parse(
      (
        await request(t.app)
          .post('/api/v1/svc/strategies/deposit/plan')
          .send({
            strategyId: 'fluid',
            owner: owner.address,
            amountMicros: '10000000',
            sourceChain: 'base',
            bridge: true,
          })
          .expect(200)
      ).body,
    );
    const planId = plan.planId ?? '';
    const legs = plan.legs ?? [];
    const hashes: Hex[] = [];
    for (const leg of legs.slice(0, 3)) hashes.push(await send('base', leg));
    await submitted(planId, 0, hashes[0] as Hex);
    await submitted(planId, 2, hashes[2] as Hex);
    await legReaches(planId, 2, 'confirmed', 'the burn to settle');
    expect(await balance('base', 'in_flight')).toBe(9_990_000n);

    // The mint is relayed and the owner deposits on Arbitrum; no delivery is recorded yet.
    const mint = await request(t.app)
      .post('/api/v1/svc/bridge/delivery')
      .set('X-API-Key', testKeys.keeper)
      .send({ planId })
      .expect(200);
    const mintTx = await send('arbitrum', mint.body.mintLeg);
    await send('arbitrum', legs[3]);
    await submitted(planId, 4, await send('arbitrum', legs[4]));
    // Several watch runs: the deposit leg stays submitted and nothing is booked for it.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await legStatus(planId, 4)).toBe('submitted');
    expect(await balance('arbitrum', 'staked:')).toBe(0n);

    // The delivery is reported: credited, then the watch settles the deposit out of liquid.
    await request(t.app)
      .post('/api/v1/svc/bridge/delivery')
      .set('X-API-Key', testKeys.keeper)
      .send({ planId, destTxId: mintTx })
      .expect(200);
    await legReaches(planId, 4, 'confirmed', 'the deposit to settle');
    expect(await balance('arbitrum', 'liquid')).toBe(0n);
    expect(await balance('arbitrum', 'staked:')).toBe(9_990_000n);
    expect(await balance('base', 'in_flight')).toBe(0n);
    expect((await verifyLedger(t.db)).ok).toBe(true);
  });
});
