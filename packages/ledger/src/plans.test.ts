import { randomBytes } from 'node:crypto';
import { bridgeTransferInsert, findBridgeTransfer } from './bridgeTransfers';
import type { BridgeTransferInput } from './bridgeTransfers';
import { findPlan, insertPlan, insertPlanOn } from './plans';
import type { PlanInput } from './plans';
import type { SqlClient } from './sqlClient';
import type { TestDatabase } from './testing';
import { createTestDatabase } from './testing';

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

const OWNER = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65';

function bridgePlan(createdAt?: Date): { plan: PlanInput; transfer: BridgeTransferInput } {
  const id = `plan_${randomBytes(16).toString('hex')}`;
  const plan: PlanInput = {
    id,
    kind: 'bridge',
    status: 'prepared',
    chain: 'base',
    venueId: null,
    owner: OWNER,
    wallet: OWNER,
    amountMicros: 25_000_000n,
    feeMicros: 12_500n,
    request: { sourceChain: 'base', destChain: 'arbitrum', amountMicros: '25000000' },
    blockers: [],
    legs: [
      {
        action: 'transfer',
        summary: "Pay the service's bridge fee",
        amountMicros: 12_500n,
        settles: true,
        payload: { encoding: 'evm-transaction-request', transaction: { data: '0xa9059cbb' } },
        effect: 'bridge_fee',
      },
      {
        action: 'burn',
        summary: 'Burn 24.9875 USDC on base with CCTP',
        amountMicros: 24_987_500n,
        settles: true,
        payload: { encoding: 'evm-transaction-request', transaction: { data: '0x8e0250ee' } },
        effect: 'bridge_burn',
        minSettleMicros: 24_987_500n,
        maxSettleMicros: 24_987_500n,
      },
    ],
    ...(createdAt ? { createdAt } : {}),
  };
  const transfer: BridgeTransferInput = {
    planId: id,
    rail: 'cctp',
    speed: 'standard',
    sourceChain: 'base',
    destChain: 'arbitrum',
    owner: OWNER,
    recipient: OWNER,
    burnMicros: 24_987_500n,
    maxRailFeeMicros: 0n,
    minReceivedMicros: 24_987_500n,
    serviceFeeMicros: 12_500n,
    feeRecipient: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
  };
  return { plan, transfer };
}

/** The database's driver, counting the statements it runs. */
function countingSql(): { sql: SqlClient; names: string[] } {
  const names: string[] = [];
  return {
    sql: {
      query: (statement, values) => {
        names.push(statement.name);
        return test.db.sql.query(statement, values);
      },
    },
    names,
  };
}

/** What a stored plan reads back as, without the columns the database fills in. */
async function stored(planId: string) {
  const plan = await findPlan(test.db.prisma, planId);
  const transfer = await findBridgeTransfer(test.db.prisma, planId);
  return {
    plan: plan && {
      ...plan,
      id: 'plan',
      legs: plan.legs.map(({ updatedAt: _updatedAt, ...leg }) => leg),
    },
    transfer: transfer && { ...transfer, planId: 'plan' },
  };
}

describe('insertPlanOn', () => {
  it('stores on the driver, in one named statement, exactly what insertPlan stores', async () => {
    const at = new Date('2026-11-27T12:00:00.123Z');
    const viaPrisma = bridgePlan(at);
    await insertPlan(test.db.prisma, viaPrisma.plan, {
      also: bridgeTransferInsert(viaPrisma.transfer),
    });
    const { sql, names } = countingSql();
    const viaDriver = bridgePlan(at);
    await insertPlanOn(sql, 'yr_test_insert_bridge_plan', viaDriver.plan, {
      also: bridgeTransferInsert(viaDriver.transfer),
    });
    // Another plan: the same prepared statement again (same name, same text).
    const again = bridgePlan();
    await insertPlanOn(sql, 'yr_test_insert_bridge_plan', again.plan, {
      also: bridgeTransferInsert(again.transfer),
    });

    expect(names).toEqual(['yr_test_insert_bridge_plan', 'yr_test_insert_bridge_plan']);
    expect((await stored(again.plan.id)).transfer?.planId).toBe('plan');
    const fromDriver = await stored(viaDriver.plan.id);
    expect(fromDriver.plan?.createdAt.toISOString()).toBe('2026-11-27T12:00:00.123Z');
    expect(fromDriver.plan?.legs.map((leg) => leg.amountMicros)).toEqual([12_500n, 24_987_500n]);
    expect(fromDriver.transfer?.burnMicros).toBe(24_987_500n);
    expect(fromDriver).toEqual(await stored(viaPrisma.plan.id));
  });

  it('stores nothing when the statement fails: the plan, its legs and its row are one', async () => {
    const first = bridgePlan();
    await insertPlanOn(test.db.sql, 'yr_test_insert_bridge_plan', first.plan, {
      also: bridgeTransferInsert(first.transfer),
    });
    // A second plan whose transfer names the first plan: the transfer's key is taken.
    const second = bridgePlan();
    await expect(
      insertPlanOn(test.db.sql, 'yr_test_insert_bridge_plan', second.plan, {
        also: bridgeTransferInsert({ ...second.transfer, planId: first.plan.id }),
      }),
    ).rejects.toThrow();
    expect(await findPlan(test.db.prisma, second.plan.id)).toBeUndefined();
  });

  it('is insertPlan when given a Prisma client (and stores the database time without one)', async () => {
    const { plan } = bridgePlan();
    const before = Date.now();
    await insertPlanOn(test.db.prisma, 'yr_test_insert_plan', plan);
    const back = await findPlan(test.db.prisma, plan.id);
    expect(back?.status).toBe('prepared');
    expect(back?.legs).toHaveLength(2);
    expect(back?.createdAt.getTime()).toBeGreaterThanOrEqual(before - 60_000);
  });
});
