import { randomBytes } from 'node:crypto';
import { claimFirst, IdempotentWriteTakenError } from './idempotentWrites';
import type { JournalEntryInput } from './journal';
import { LedgerError } from './journal';
import { findPlan } from './plans';
import type { PlanInput } from './plans';
import { writePlan } from './planWrite';
import type { PlanWriteInput } from './planWrite';
import type { SqlClient } from './sqlClient';
import type { TestDatabase } from './testing';
import { createTestDatabase } from './testing';
import { verifyLedger } from './verifyLedger';

// Issue 45: a route's write (plan, reservation, audit row, Idempotency-Key answer) is one
// autocommit statement on the driver (`ledger_write_plan`, migration 0063): all of it or nothing.

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

const wallet = () => `0x${randomBytes(20).toString('hex')}`;

/** A plan whose owner is known (`PlanInput.owner` may be null). */
type OwnedPlan = PlanInput & { readonly owner: string };

function routePlan(owner: string): OwnedPlan {
  return {
    id: `plan_${randomBytes(16).toString('hex')}`,
    kind: 'route',
    status: 'prepared',
    chain: 'base',
    venueId: null,
    owner,
    wallet: owner,
    amountMicros: 2_000_000n,
    feeMicros: 0n,
    request: { amountMicros: '2000000', chain: 'base' },
    blockers: [],
    legs: [
      {
        action: 'deposit',
        summary: 'Deposit 2 USDC',
        amountMicros: 2_000_000n,
        settles: true,
        payload: { encoding: 'evm-transaction-request', transaction: { data: '0x' } },
        effect: 'fund_liquid',
      },
    ],
  };
}

/** `from` → the owner's pending_in (a route's reservation when `from` is Base's external). */
const reservation = (
  plan: OwnedPlan,
  from: JournalEntryInput['postings'][number]['account'],
): JournalEntryInput => ({
  kind: 'route.prepared',
  dedupeKey: `prepare:${plan.id}`,
  planId: plan.id,
  postings: [
    { account: from, amountMicros: -2_000_000n },
    {
      account: { wallet: plan.owner, chain: 'base', bucket: 'pending_in' },
      amountMicros: 2_000_000n,
    },
  ],
});

const audit = (plan: OwnedPlan) => ({
  wallet: plan.owner,
  operation: 'routeFunds',
  method: 'POST' as const,
  path: '/wallets/{address}/route',
  actorRole: 'owner' as const,
  keyId: 'key_1',
  requestId: `req-${randomBytes(4).toString('hex')}`,
  planId: plan.id,
  outcome: 'ok' as const,
  status: 200,
  errorCode: null,
});

/** A claimed Idempotency-Key and the answer to store under it. */
async function keyedAnswer(plan: OwnedPlan) {
  const ref = {
    scope: `wallet:${plan.owner}`,
    operation: 'routeFunds',
    key: randomBytes(8).toString('hex'),
  };
  const caller = { ...ref, scope: 'key:key_1' };
  const claim = await claimFirst(test.db, {
    ...caller,
    wallet: plan.owner,
    requestHash: 'a'.repeat(64),
    lockMs: 30_000,
    write: ref,
  });
  if (claim.kind !== 'claimed') throw new Error(`not claimed: ${claim.kind}`);
  return {
    write: {
      ...ref,
      requestHash: 'a'.repeat(64),
      status: 200,
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
      body: Buffer.from(JSON.stringify({ planId: plan.id, note: 'déjà' })),
    },
    claim: { ...caller, claimToken: claim.claimToken },
  };
}

/** The driver, counting the statements it runs. */
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

const effects = async (plan: PlanInput, key: string) => ({
  plan: Boolean(await findPlan(test.db, plan.id)),
  entries: await test.db.journalEntry.count({ where: { planId: plan.id } }),
  audit: await test.db.auditEvent.count({ where: { planId: plan.id } }),
  answers: await test.db.idempotentWrite.count({ where: { key } }),
});

describe('writePlan', () => {
  it('writes the plan, its reservation, the audit row and the answer in one statement', async () => {
    const plan = routePlan(wallet());
    const answer = await keyedAnswer(plan);
    const { sql, names } = countingSql();
    await writePlan(sql, {
      plan,
      entry: reservation(plan, { system: 'external', chain: 'base' }),
      recorded: { audit: [audit(plan)], answer },
    });
    expect(names).toEqual(['yr_write_plan']);
    expect(await effects(plan, answer.write.key)).toEqual({
      plan: true,
      entries: 1,
      audit: 1,
      answers: 1,
    });
    const stored = await test.db.idempotentWrite.findFirstOrThrow({
      where: { key: answer.write.key },
    });
    expect(stored.responseBody).toBe(answer.write.body.toString('utf8'));
    const caller = await test.db.idempotencyKey.findFirstOrThrow({
      where: { key: answer.claim.key, scope: answer.claim.scope },
    });
    expect(caller.state).toBe('completed');
    expect(Buffer.from(caller.responseBody ?? []).equals(answer.write.body)).toBe(true);
    expect((await verifyLedger(test.db)).problems).toEqual([]);
  });

  it("another run's answer under the key first: IdempotentWriteTakenError, nothing written", async () => {
    const owner = wallet();
    const first = routePlan(owner);
    const answer = await keyedAnswer(first);
    await writePlan(test.db.sql, {
      plan: first,
      entry: reservation(first, { system: 'external', chain: 'base' }),
      recorded: { audit: [], answer },
    });
    const twin = routePlan(owner);
    const write: PlanWriteInput = {
      plan: twin,
      entry: reservation(twin, { system: 'external', chain: 'base' }),
      recorded: { audit: [audit(twin)], answer },
    };
    await expect(writePlan(test.db.sql, write)).rejects.toBeInstanceOf(IdempotentWriteTakenError);
    expect(await effects(twin, 'none')).toEqual({ plan: false, entries: 0, audit: 0, answers: 0 });
    expect(await test.db.idempotentWrite.count({ where: { key: answer.write.key } })).toBe(1);
  });

  it('an overdraft is INSUFFICIENT_BALANCE and writes neither the plan, the audit row nor the answer', async () => {
    const plan = routePlan(wallet());
    const answer = await keyedAnswer(plan);
    const write = writePlan(test.db.sql, {
      plan,
      entry: reservation(plan, { wallet: plan.owner, chain: 'base', bucket: 'liquid' }),
      recorded: { audit: [audit(plan)], answer },
    });
    await expect(write).rejects.toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
    await expect(write).rejects.toBeInstanceOf(LedgerError);
    expect(await effects(plan, answer.write.key)).toEqual({
      plan: false,
      entries: 0,
      audit: 0,
      answers: 0,
    });
    expect((await verifyLedger(test.db)).problems).toEqual([]);
  });
});
