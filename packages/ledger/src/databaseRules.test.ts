import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { postJournalEntry } from './journal';
import { verifyLedger } from './verifyLedger';
import { createTestDatabase, reserveRouteLeg } from './testing';
import type { TestDatabase } from './testing';

// What the database itself refuses, whatever the code does (migration 0011): a reservation
// without the leg that holds it, a leg leaving its open state with its reservation held, a leg
// settled twice, a final leg changing, a released leg reopening.

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(async () => {
  expect((await verifyLedger(test.db)).problems).toEqual([]);
  await test.drop();
});

const wallet = () => `wallet-${randomBytes(6).toString('hex')}`;

/** `ledger_post_entry`'s payload for leg 0 of `planId`: the amount out of the wallet's pending_in. */
const legEntry = (
  entry: { kind: string; dedupeKey: string; planId: string; wallet: string; amount: bigint },
  to: { kind: 'wallet' | 'system'; wallet: string | null; bucket: string },
) =>
  JSON.stringify({
    kind: entry.kind,
    dedupeKey: entry.dedupeKey,
    planId: entry.planId,
    legIndex: 0,
    postings: [
      {
        kind: 'wallet',
        wallet: entry.wallet,
        chain: 'solana',
        bucket: 'pending_in',
        amount: `-${entry.amount}`,
      },
      { ...to, chain: 'solana', amount: `${entry.amount}` },
    ],
  });

async function sql(statements: readonly string[]): Promise<void> {
  const client = new Client({ connectionString: test.url });
  await client.connect();
  try {
    await client.query('BEGIN');
    for (const statement of statements) await client.query(statement);
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}

it('refuses a reservation without the leg that holds it', async () => {
  const move = (planId?: string) =>
    test.db.transaction((tx) =>
      postJournalEntry(tx, {
        kind: 'rogue',
        ...(planId ? { planId } : {}),
        postings: [
          { account: { system: 'external', chain: 'solana' }, amountMicros: -5n },
          {
            account: { wallet: wallet(), chain: 'solana', bucket: 'pending_out' },
            amountMicros: 5n,
          },
        ],
      }),
    );
  await expect(move()).rejects.toThrow(/moves a reservation without the leg that holds it/);
  // A plan whose leg is final holds nothing either.
  const account = wallet();
  const planId = await reserveRouteLeg(test.db, { wallet: account, amountMicros: 5n });
  const release = legEntry(
    {
      kind: 'route.released',
      dedupeKey: `release:${planId}:0`,
      planId,
      wallet: account,
      amount: 5n,
    },
    { kind: 'system', wallet: null, bucket: 'external' },
  );
  await sql([
    `SELECT ledger_post_entry('${release}'::jsonb)`,
    `UPDATE plan_legs SET status = 'failed', failure_reason = 'test' WHERE plan_id = '${planId}'`,
  ]);
  await expect(move(planId)).rejects.toThrow(/without the leg/);
});

it('refuses a leg leaving its open state with its reservation still held', async () => {
  const planId = await reserveRouteLeg(test.db, { wallet: wallet(), amountMicros: 4n });
  await expect(
    sql([`UPDATE plan_legs SET status = 'failed' WHERE plan_id = '${planId}'`]),
  ).rejects.toThrow(/with its reservation still held/);
  await expect(
    sql([
      `UPDATE plan_legs SET status = 'expired', released_at = now() WHERE plan_id = '${planId}'`,
    ]),
  ).rejects.toThrow(/with its reservation still held/);
  expect((await test.db.planLeg.findFirstOrThrow({ where: { planId } })).status).toBe('unsigned');
});

it('refuses a second settlement of a leg and any change of a final leg', async () => {
  const account = wallet();
  const planId = await reserveRouteLeg(test.db, { wallet: account, amountMicros: 3n });
  const settle = (dedupeKey: string) =>
    legEntry(
      { kind: 'route.settled', dedupeKey, planId, wallet: account, amount: 3n },
      { kind: 'wallet', wallet: account, bucket: 'liquid' },
    );
  await sql([
    `SELECT ledger_post_entry('${settle('first')}'::jsonb)`,
    `UPDATE plan_legs SET status = 'confirmed', tx_id = 'tx-${planId}',
       settled_amount_micros = 3 WHERE plan_id = '${planId}'`,
  ]);
  // Another entry settling the same leg, under another dedupe key.
  await expect(sql([`SELECT ledger_post_entry('${settle('second')}'::jsonb)`])).rejects.toThrow(
    /journal_entries_leg_settled/,
  );
  await expect(
    sql([`UPDATE plan_legs SET settled_amount_micros = 4 WHERE plan_id = '${planId}'`]),
  ).rejects.toThrow(/is confirmed and final/);
  await expect(
    sql([`UPDATE plan_legs SET status = 'failed' WHERE plan_id = '${planId}'`]),
  ).rejects.toThrow(/is confirmed and final/);
});
