import { randomBytes } from 'node:crypto';
import { findBridgeTransfer } from './bridgeTransfers';
import { DatabaseUnavailableError } from './databaseUnavailable';
import { PlanWrites, insertPlan, insertPlans } from './planInsert';
import { findPlan } from './plans';
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

/** A prepared Base → Arbitrum bridge plan, with its transfer. */
function bridgePlan(createdAt?: Date): PlanInput {
  const id = `plan_${randomBytes(16).toString('hex')}`;
  return {
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
    bridgeTransfer: {
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
    },
  };
}

/** The database's driver, counting the statements it runs and the plans each carried. */
function countingSql(): { sql: SqlClient; names: string[]; plansPerStatement: number[] } {
  const names: string[] = [];
  const plansPerStatement: number[] = [];
  return {
    sql: {
      query: (statement, values) => {
        names.push(statement.name);
        plansPerStatement.push((JSON.parse(String(values[0])) as unknown[]).length);
        return test.db.sql.query(statement, values);
      },
    },
    names,
    plansPerStatement,
  };
}

/** What a stored plan reads back as, without the columns the database fills in. */
async function stored(planId: string) {
  const plan = await findPlan(test.db, planId);
  const transfer = await findBridgeTransfer(test.db, planId);
  return {
    plan: plan && {
      ...plan,
      id: 'plan',
      legs: plan.legs.map(({ updatedAt: _updatedAt, ...leg }) => leg),
    },
    transfer: transfer && { ...transfer, planId: 'plan' },
  };
}

describe('insertPlan', () => {
  it('stores on the driver, in one named statement, exactly what it stores through Prisma', async () => {
    const at = new Date('2026-11-27T12:00:00.123Z');
    const viaPrisma = bridgePlan(at);
    await test.db.transaction((tx) => insertPlan(tx, viaPrisma));
    const { sql, names } = countingSql();
    const viaDriver = bridgePlan(at);
    await insertPlan({ sql }, viaDriver);
    // Another plan: the same prepared statement again (same name, same text).
    const again = bridgePlan();
    await insertPlan({ sql }, again);

    expect(names).toEqual(['yr_insert_plans_v2', 'yr_insert_plans_v2']);
    expect((await stored(again.id)).transfer?.planId).toBe('plan');
    const fromDriver = await stored(viaDriver.id);
    expect(fromDriver.plan?.createdAt.toISOString()).toBe('2026-11-27T12:00:00.123Z');
    expect(fromDriver.plan?.legs.map((leg) => leg.amountMicros)).toEqual([12_500n, 24_987_500n]);
    expect(fromDriver.transfer?.burnMicros).toBe(24_987_500n);
    expect(fromDriver.transfer?.feeRecipient).toBe('0xa0Ee7A142d267C1f36714E4a8F75612F20a79720');
    expect(fromDriver).toEqual(await stored(viaPrisma.id));
  });

  it('keeps amounts past 2^53 exact, and stores the database time without createdAt', async () => {
    const big = 2n ** 62n + 1n;
    const { bridgeTransfer: _transfer, ...plan } = bridgePlan();
    const before = Date.now();
    await insertPlan(test.db, { ...plan, amountMicros: big, legs: [] });
    const back = await findPlan(test.db, plan.id);
    expect(back?.amountMicros).toBe(big);
    expect(back?.legs).toHaveLength(0);
    expect(await findBridgeTransfer(test.db, plan.id)).toBeNull();
    expect(back?.createdAt.getTime()).toBeGreaterThanOrEqual(before - 60_000);
  });

  it('stores nothing when one row breaks a rule: the plans, legs and transfers are one', async () => {
    const first = bridgePlan();
    await insertPlan(test.db, first);
    // Two plans in one statement, the second's id taken: neither is stored.
    const fresh = bridgePlan();
    await expect(insertPlans(test.db, [fresh, { ...bridgePlan(), id: first.id }])).rejects.toThrow(
      /duplicate key/,
    );
    expect(await findPlan(test.db, fresh.id)).toBeUndefined();
    expect(await findBridgeTransfer(test.db, fresh.id)).toBeNull();
  });
});

describe('PlanWrites', () => {
  it('stores concurrent plans together, each caller answered once its own is in', async () => {
    const { sql, plansPerStatement } = countingSql();
    const writes = new PlanWrites(sql, { maxBatch: 8, maxInFlight: 1 });
    const plans = Array.from({ length: 12 }, () => bridgePlan());
    await Promise.all(plans.map((plan) => writes.write(plan)));

    // The first alone (sent at once), then what queued meanwhile: 8, then the last 3.
    expect(plansPerStatement).toEqual([1, 8, 3]);
    for (const plan of plans) {
      expect((await stored(plan.id)).plan?.legs).toHaveLength(2);
      expect((await stored(plan.id)).transfer?.burnMicros).toBe(24_987_500n);
    }
  });

  it("gives a row's error to its own caller only: the rest of its batch is stored", async () => {
    const taken = bridgePlan();
    await insertPlan(test.db, taken);
    const { sql, plansPerStatement } = countingSql();
    const writes = new PlanWrites(sql, { maxBatch: 8, maxInFlight: 1 });
    const [lead, good, bad, other] = [
      bridgePlan(),
      bridgePlan(),
      { ...bridgePlan(), id: taken.id },
      bridgePlan(),
    ];
    const outcomes = await Promise.allSettled(
      [lead, good, bad, other].map((plan) => writes.write(plan as PlanInput)),
    );

    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    // The lead alone, the batch of three (refused whole), then each of the three alone.
    expect(plansPerStatement).toEqual([1, 3, 1, 1, 1]);
    expect((await stored(good!.id)).plan?.status).toBe('prepared');
    expect((await stored(other!.id)).transfer?.planId).toBe('plan');
  });

  it('fails a whole batch lost with its connection, and sends none of it again', async () => {
    const { sql: counting, plansPerStatement } = countingSql();
    let calls = 0;
    const losing: SqlClient = {
      query: async (statement, values) => {
        calls += 1;
        if (calls === 2) {
          await counting.query(statement, values);
          throw new DatabaseUnavailableError({ cause: new Error('Connection terminated') });
        }
        return counting.query(statement, values);
      },
    };
    const writes = new PlanWrites(losing, { maxBatch: 8, maxInFlight: 1 });
    const plans = [bridgePlan(), bridgePlan(), bridgePlan()];
    const outcomes = await Promise.allSettled(plans.map((plan) => writes.write(plan)));

    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'rejected',
      'rejected',
    ]);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(DatabaseUnavailableError);
    // Committed before the connection went: not sent again (it would fail as a duplicate).
    expect(plansPerStatement).toEqual([1, 2]);
    expect((await stored(plans[2]!.id)).plan?.status).toBe('prepared');
  });
});
