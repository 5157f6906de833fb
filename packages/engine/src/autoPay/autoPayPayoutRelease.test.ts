import { findSettlementLeg, readBalancesOf, verifyLedger } from '@yieldrouter/ledger';
import type { AutoPayRunDocument } from '@yieldrouter/schemas';
import { EngineError } from '../errors';
import { releaseLeg } from '../wallet/releaseLegs';
import { settleLeg } from '../wallet/settleLeg';
import type { FakeChain } from '../wallet/testing/fakeChain';
import {
  FAKE_STAKE_VENUE as VENUE,
  fakeStakeVenues as venues,
} from '../wallet/testing/stakeOnFakeChain';
import { useFakeStakeDatabase } from '../wallet/testing/useFakeStakeDatabase';
import { runAutoPay } from './runAutoPay';
import { harvestOnFakeChain, stakedOnePayeeWallet } from './testing/autoPayOnFakeChain';

// Issue 40: an auto-pay payout leg that is released (expired, failed, cancelled) after its run's
// withdraw settled returns the payee's share to the owner's liquid and to the pool, so the next
// run pays it; and a payout pays only from what its own plan brought into auto_pay.

const { test, opportunities } = useFakeStakeDatabase();

const PRINCIPAL = 100_000_000n;
const NET = 9_500_000n; // 10 USDC of yield, 5% protocol fee, 100% to the payee

async function stakedWithYield(percentage = 100) {
  const db = test().db;
  const { chain, wallet, payee } = await stakedOnePayeeWallet({
    db,
    opportunities: opportunities(),
    percentage,
    principalMicros: PRINCIPAL,
  });
  chain.accrue(VENUE, 10_000_000n);
  const harvest = await harvestOnFakeChain(db, chain, wallet);
  expect(BigInt(harvest.netYieldMicros)).toBe(NET);
  return { chain, wallet, payee };
}

const run = (chain: FakeChain, wallet: string) =>
  runAutoPay({
    db: test().db,
    adapters: chain.adapters,
    venues,
    address: wallet,
    target: {},
    now: new Date(),
  });

const settle = (chain: FakeChain, planId: string, legIndex: number, txId: string) =>
  settleLeg({
    db: test().db,
    adapters: chain.adapters,
    venues,
    planId,
    legIndex,
    txId,
    now: new Date(),
  });

async function settleWithdraw(chain: FakeChain, plan: AutoPayRunDocument) {
  const planId = plan.planId as string;
  const amount = BigInt(plan.split.amountMicros);
  const out = await settle(chain, planId, 0, chain.execute({ planId, amountMicros: amount }));
  expect(out.status).toBe('confirmed');
}

async function expire(planId: string, legIndex: number) {
  const leg = await findSettlementLeg(test().db, planId, legIndex);
  if (!leg) throw new Error('no leg');
  const released = await releaseLeg(
    { db: test().db, now: new Date() },
    leg,
    'expired',
    'unsigned 24 h after the plan was prepared',
  );
  expect(released?.status).toBe('expired');
}

async function bucket(wallet: string, name: string) {
  const rows = await readBalancesOf(test().db, [wallet]);
  return rows.find((row) => row.bucket === name)?.balanceMicros ?? 0n;
}

/** The next run pays the share again, from liquid (no withdraw leg), and the payee gets it. */
async function nextRunPays(chain: FakeChain, wallet: string, payee: string) {
  const again = await run(chain, wallet);
  expect(again.status).toBe('prepared');
  expect(BigInt(again.split.amountMicros)).toBe(NET);
  const legs = again.legs ?? [];
  expect(legs.map((leg) => leg.action)).toEqual(['transfer']);
  const planId = again.planId as string;
  const paid = await settle(chain, planId, 0, chain.transfer(planId, payee));
  expect(paid).toMatchObject({ status: 'confirmed', settledAmountMicros: '9500000' });
  expect(await bucket(wallet, 'auto_pay')).toBe(0n);
  expect(await bucket(wallet, 'liquid')).toBe(0n);
  await expect(run(chain, wallet)).rejects.toMatchObject({ code: 'AUTO_PAY_NOTHING_PAYABLE' });
  expect((await verifyLedger(test().db)).problems).toEqual([]);
}

it('an expired payout leg returns its share to liquid and the next run pays it', async () => {
  const { chain, wallet, payee } = await stakedWithYield();
  const plan = await run(chain, wallet);
  await settleWithdraw(chain, plan);
  expect(await bucket(wallet, 'auto_pay')).toBe(NET);
  await expire(plan.planId as string, 1);
  // On chain the withdrawn yield sits in the owner's wallet: liquid, not held for anyone.
  expect(await bucket(wallet, 'auto_pay')).toBe(0n);
  expect(await bucket(wallet, 'liquid')).toBe(NET);
  await nextRunPays(chain, wallet, payee);
});

it('a payout leg whose transfer reverted does the same', async () => {
  const { chain, wallet, payee } = await stakedWithYield();
  const plan = await run(chain, wallet);
  await settleWithdraw(chain, plan);
  const planId = plan.planId as string;
  const failed = await settle(chain, planId, 1, chain.transfer(planId, payee, { ok: false }));
  expect(failed.status).toBe('failed');
  expect(await bucket(wallet, 'auto_pay')).toBe(0n);
  expect(await bucket(wallet, 'liquid')).toBe(NET);
  await nextRunPays(chain, wallet, payee);
});

it('a cancelled run commits nothing: the next run withdraws and pays again', async () => {
  const { chain, wallet, payee } = await stakedWithYield();
  const plan = await run(chain, wallet);
  const { cancelPlan } = await import('../wallet/releaseLegs');
  await cancelPlan({
    db: test().db,
    planId: plan.planId as string,
    allowWallet: () => true,
    now: new Date(),
  });
  const again = await run(chain, wallet);
  expect((again.legs ?? []).map((leg) => leg.action)).toEqual(['withdraw', 'transfer']);
  await settleWithdraw(chain, again);
  const planId = again.planId as string;
  await settle(chain, planId, 1, chain.transfer(planId, payee));
  expect(await bucket(wallet, 'auto_pay')).toBe(0n);
  expect((await verifyLedger(test().db)).problems).toEqual([]);
});

it('an expired payout that lands late pays from liquid and the pool takes the share back', async () => {
  const { chain, wallet, payee } = await stakedWithYield();
  const plan = await run(chain, wallet);
  await settleWithdraw(chain, plan);
  const planId = plan.planId as string;
  await expire(planId, 1);
  const late = await settle(chain, planId, 1, chain.transfer(planId, payee));
  expect(late).toMatchObject({ status: 'confirmed', settledAmountMicros: '9500000' });
  expect(await bucket(wallet, 'liquid')).toBe(0n);
  expect(await bucket(wallet, 'auto_pay')).toBe(0n);
  await expect(run(chain, wallet)).rejects.toMatchObject({ code: 'AUTO_PAY_NOTHING_PAYABLE' });
  expect((await verifyLedger(test().db)).problems).toEqual([]);
});

it("a payout never settles from another run's money before its own withdraw", async () => {
  // Half the yield to the payee: each run stays clear of the principal's rounding edge.
  const { chain, wallet, payee } = await stakedWithYield(50);
  const share = NET / 2n;
  const first = await run(chain, wallet);
  await settleWithdraw(chain, first);
  // The first run's payout is still open: its 4.75 sits in auto_pay. More yield, a second run.
  chain.accrue(VENUE, 10_000_000n);
  await harvestOnFakeChain(test().db, chain, wallet);
  const second = await run(chain, wallet);
  const planId = second.planId as string;
  expect((second.legs ?? []).map((leg) => leg.action)).toEqual(['withdraw', 'transfer']);
  const early = settle(chain, planId, 1, chain.transfer(planId, payee));
  await expect(early).rejects.toBeInstanceOf(EngineError);
  await expect(early).rejects.toMatchObject({ code: 'AUTO_PAY_WITHDRAW_NOT_SETTLED' });
  expect(await bucket(wallet, 'auto_pay')).toBe(share);
  // Each payout settles once its own withdraw did.
  await settle(chain, first.planId as string, 1, chain.transfer(first.planId as string, payee));
  await settleWithdraw(chain, second);
  await settle(chain, planId, 1, chain.transfer(planId, payee));
  expect(await bucket(wallet, 'auto_pay')).toBe(0n);
  expect((await verifyLedger(test().db)).problems).toEqual([]);
});

it('a withdraw that lands after its payout expired returns the share to liquid', async () => {
  const { chain, wallet, payee } = await stakedWithYield();
  const plan = await run(chain, wallet);
  await expire(plan.planId as string, 1);
  await settleWithdraw(chain, plan);
  // No payout of the run is open: nothing is held for payees, the share is the owner's liquid.
  expect(await bucket(wallet, 'auto_pay')).toBe(0n);
  expect(await bucket(wallet, 'liquid')).toBe(NET);
  await nextRunPays(chain, wallet, payee);
});

it('a payout that pays less than its share returns the rest once no payout is open', async () => {
  const { chain, wallet, payee } = await stakedWithYield();
  const plan = await run(chain, wallet);
  const planId = plan.planId as string;
  await settleWithdraw(chain, plan);
  // A short transfer: the payee received 1 micro less than the run's share.
  const short = await settle(
    chain,
    planId,
    1,
    chain.transfer(planId, payee, { amountMicros: NET - 1n }),
  );
  expect(short).toMatchObject({ status: 'confirmed', settledAmountMicros: String(NET - 1n) });
  expect(await bucket(wallet, 'auto_pay')).toBe(0n);
  expect(await bucket(wallet, 'liquid')).toBe(1n);
  expect((await verifyLedger(test().db)).problems).toEqual([]);
});
