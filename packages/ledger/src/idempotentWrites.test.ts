import { randomBytes } from 'node:crypto';
import { claimIdempotencyKey } from './idempotency';
import {
  IdempotentWriteTakenError,
  claimFirst,
  findIdempotentWrite,
  recordIdempotentWrite,
} from './idempotentWrites';
import { insertPlan } from './planInsert';
import type { TestDatabase } from './testing';
import { createTestDatabase } from './testing';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.drop());

const HASH = 'c'.repeat(64);
const answer = (planId: string) => ({
  requestHash: HASH,
  status: 200,
  headers: { 'Content-Type': 'application/json; charset=utf-8' },
  body: Buffer.from(JSON.stringify({ planId })),
});
const refs = () => {
  const key = `k-${randomBytes(6).toString('hex')}`;
  return {
    write: { scope: 'wallet:0xabc', operation: 'routeFunds', key },
    caller: { scope: 'key:key_1', wallet: '0xabc', operation: 'routeFunds', key },
  };
};

describe('idempotent writes', () => {
  it('the answer is recorded with the claim of the caller; the next caller, any key, finds it', async () => {
    const { write, caller } = refs();
    const first = await claimFirst(t.db, {
      ...caller,
      requestHash: HASH,
      lockMs: 30_000,
      write,
    });
    if (first.kind !== 'claimed') throw new Error(`expected a claim, got ${first.kind}`);
    await t.db.transaction((tx) =>
      recordIdempotentWrite(
        tx,
        { ...write, ...answer('plan_1') },
        {
          ...caller,
          claimToken: first.claimToken,
        },
      ),
    );
    // The caller's own record was completed in the same statement.
    expect(
      await claimIdempotencyKey(t.db, { ...caller, requestHash: HASH, lockMs: 30_000 }),
    ).toMatchObject({ kind: 'replay', status: 200, body: answer('plan_1').body });
    // Another API key of the owner: the write's answer, in one statement, nothing claimed.
    const other = { ...caller, scope: 'key:key_2' };
    const again = await claimFirst(t.db, {
      ...other,
      requestHash: HASH,
      lockMs: 30_000,
      write,
    });
    expect(again).toEqual({ kind: 'written', write: answer('plan_1') });
    expect(await t.db.idempotencyKey.count({ where: { scope: 'key:key_2' } })).toBe(0);
  });

  it('a second run of the same write cannot commit: its transaction rolls back', async () => {
    const { write } = refs();
    await t.db.transaction((tx) =>
      recordIdempotentWrite(tx, { ...write, ...answer('plan_first') }),
    );
    const planId = `plan_${randomBytes(16).toString('hex')}`;
    const plans = () => t.db.plan.count({ where: { id: planId } });
    const second = t.db.transaction(async (tx) => {
      await insertPlan(tx, {
        id: planId,
        kind: 'route',
        status: 'prepared',
        chain: 'solana',
        venueId: null,
        owner: '0xabc',
        wallet: '0xabc',
        amountMicros: 1n,
        feeMicros: 0n,
        request: {},
        blockers: [],
        legs: [],
      });
      await recordIdempotentWrite(tx, { ...write, ...answer(planId) });
    });
    await expect(second).rejects.toBeInstanceOf(IdempotentWriteTakenError);
    expect(await plans()).toBe(0);
    expect(await findIdempotentWrite(t.db, write)).toEqual(answer('plan_first'));
  });
});
