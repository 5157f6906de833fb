import { randomBytes } from 'node:crypto';
import { insertPlan } from './planInsert';
import type { TestDatabase } from './testing';
import { createTestDatabase } from './testing';

// Issue 45: a receipt becoming expected wakes the keeper's watches (migration 0064): a leg
// turning `submitted` sends NOTIFY ledger_receipts at its commit; other leg updates do not.

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check: () => boolean, ms = 5000): Promise<boolean> {
  for (let waited = 0; !check() && waited < ms; waited += 20) await sleep(20);
  return check();
}

it('a leg turning submitted wakes the listener; a leg updated otherwise does not', async () => {
  const planId = `plan_${randomBytes(16).toString('hex')}`;
  const owner = `0x${randomBytes(20).toString('hex')}`;
  await insertPlan(test.db, {
    id: planId,
    kind: 'deposit',
    status: 'prepared',
    chain: 'base',
    venueId: null,
    owner,
    wallet: null,
    amountMicros: 1_000_000n,
    feeMicros: 0n,
    request: {},
    blockers: [],
    legs: [
      {
        action: 'approve',
        summary: 'Approve USDC',
        amountMicros: 1_000_000n,
        settles: false,
        payload: { encoding: 'evm-transaction-request', transaction: { data: '0x' } },
      },
    ],
  });
  let heard = 0;
  const unlisten = await test.db.listen('ledger_receipts', () => (heard += 1));
  try {
    await test.db.$executeRaw`
      UPDATE plan_legs SET summary = 'Approve USDC again' WHERE plan_id = ${planId}`;
    await sleep(300);
    expect(heard).toBe(0);
    await test.db.$executeRaw`
      UPDATE plan_legs SET status = 'submitted', tx_id = ${`0x${randomBytes(32).toString('hex')}`}
      WHERE plan_id = ${planId}`;
    expect(await until(() => heard > 0)).toBe(true);
  } finally {
    await unlisten();
  }
});
