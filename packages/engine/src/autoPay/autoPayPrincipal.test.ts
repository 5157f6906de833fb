import { insertPlan, readAutoPayPools } from '@yieldrouter/ledger';
import type { LegEffect } from '@yieldrouter/ledger';
import { newPlanId } from '@yieldrouter/schemas';
import { fakeBase58 } from '../wallet/testing/fakeChain';
import { FAKE_STAKE_VENUE as VENUE } from '../wallet/testing/stakeOnFakeChain';
import { useFakeStakeDatabase } from '../wallet/testing/useFakeStakeDatabase';

// Issue 40 ("to settle"): auto-pay's principal guard counts a rebalance's legs as it counts a
// deposit's and a withdrawal's. A venue funded by a rebalance had principal 0, so a loss there
// could have let a payout take principal.

const { test, opportunities } = useFakeStakeDatabase();

async function settledLeg(wallet: string, effect: LegEffect, micros: bigint) {
  const db = test().db;
  const id = newPlanId();
  await insertPlan(db, {
    id,
    kind: 'rebalance',
    status: 'prepared',
    chain: 'solana',
    venueId: VENUE,
    owner: wallet,
    wallet,
    amountMicros: micros,
    feeMicros: 0n,
    request: {},
    blockers: [],
    legs: [
      {
        action: effect === 'rebalance_in' ? 'deposit' : 'withdraw',
        summary: effect,
        amountMicros: micros,
        settles: true,
        payload: {},
        effect,
        venueId: VENUE,
      },
    ],
  });
  await db.$executeRaw`
    UPDATE plan_legs SET status = 'confirmed', settled_amount_micros = ${micros}, tx_id = ${fakeBase58(88)}
    WHERE plan_id = ${id}`;
}

it('counts rebalance legs into and out of the venue as principal', async () => {
  const db = test().db;
  const wallet = fakeBase58();
  const opportunity = opportunities().find((entry) => entry.venueId === VENUE);
  if (!opportunity) throw new Error('no fake venue opportunity');
  await db.$executeRaw`
    INSERT INTO auto_pay_yield (wallet, chain, opportunity_id)
    VALUES (${wallet}, 'solana', ${opportunity.opportunityId})`;
  await settledLeg(wallet, 'rebalance_in', 50_000_000n);
  const [funded] = await readAutoPayPools(db, wallet);
  expect(funded?.principalMicros).toBe(50_000_000n);
  await settledLeg(wallet, 'rebalance_out', 20_000_000n);
  const [after] = await readAutoPayPools(db, wallet);
  expect(after?.principalMicros).toBe(30_000_000n);
});
