import { randomBytes } from 'node:crypto';
import { insertPlan } from '@yieldrouter/ledger';
import type { LegEffect } from '@yieldrouter/ledger';
import { BRIDGE_TEST_OWNER, createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import { EngineError } from '../errors';
import { requireSwapSettled } from './requireSwapSettled';

// The order rule of a swap → bridge → deposit plan on real PostgreSQL: the bridge's fee and
// burn legs wait for the swap leg before them to be confirmed (whatever else it is: unsigned,
// submitted, failed, expired); other legs, and bridges with no swap, never wait on it.

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

const EFFECTS: readonly LegEffect[] = ['swap', 'bridge_fee', 'bridge_burn', 'bridged_stake'];

/** A deposit plan with a swap leg (0), the bridge's fee (1) and burn (2), the deposit (3). */
async function swapBridgePlan(effects: readonly LegEffect[] = EFFECTS): Promise<string> {
  const planId = `plan_${randomBytes(16).toString('hex')}`;
  await insertPlan(test.db, {
    id: planId,
    kind: 'deposit',
    status: 'prepared',
    chain: 'arbitrum',
    venueId: null,
    owner: BRIDGE_TEST_OWNER,
    wallet: BRIDGE_TEST_OWNER,
    amountMicros: 10_000_000n,
    feeMicros: 0n,
    request: {},
    blockers: [],
    legs: effects.map((effect) => ({
      action: effect,
      summary: effect,
      amountMicros: 1_000_000n,
      settles: true,
      payload: {},
      effect,
    })),
  });
  return planId;
}

/** Puts the swap leg in `status`, with what that status carries (a transaction, a release). */
const swapLegIs = (planId: string, status: string) =>
  test.db.planLeg.update({
    where: { planId_legIndex: { planId, legIndex: 0 } },
    data: {
      status,
      ...(status === 'unsigned' ? {} : { txId: `0x${planId.slice(5).padEnd(64, '0')}` }),
      ...(status === 'confirmed' ? { settledAmountMicros: 1_000_000n, settledAt: new Date() } : {}),
      ...(status === 'expired' ? { releasedAt: new Date() } : {}),
    },
  });

const check = (planId: string, legIndex: number) =>
  requireSwapSettled(test.db, { planId, legIndex, effect: EFFECTS[legIndex] ?? 'none' });

it.each(['unsigned', 'submitted', 'failed', 'expired'])(
  'the swap leg %s: the fee and burn legs are refused 409 SWAP_NOT_SETTLED',
  async (status) => {
    const planId = await swapBridgePlan();
    await swapLegIs(planId, status);
    for (const legIndex of [1, 2]) {
      const refused = await check(planId, legIndex).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(EngineError);
      expect(refused).toMatchObject({ code: 'SWAP_NOT_SETTLED', field: 'legIndex' });
      expect((refused as Error).message).toContain(`swap leg 0`);
      expect((refused as Error).message).toContain(status);
    }
    // The deposit leg waits on its bridge's delivery (requireBridgeDelivered), not on this.
    await expect(check(planId, 3)).resolves.toBeUndefined();
  },
);

it('the swap leg confirmed: the fee and burn legs pass', async () => {
  const planId = await swapBridgePlan();
  await swapLegIs(planId, 'confirmed');
  await expect(check(planId, 1)).resolves.toBeUndefined();
  await expect(check(planId, 2)).resolves.toBeUndefined();
});

it('a bridge with no swap before it passes', async () => {
  const planId = await swapBridgePlan(['bridge_fee', 'bridge_burn']);
  await expect(
    requireSwapSettled(test.db, { planId, legIndex: 1, effect: 'bridge_burn' }),
  ).resolves.toBeUndefined();
});
