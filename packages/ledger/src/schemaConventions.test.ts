import { Client } from 'pg';
import { createTestDatabase } from './testing';
import type { TestDatabase } from './testing';

// How the schema's CHECK constraints are written (migration 0039). PostgreSQL reads and plans a
// table's CHECK expressions at the start of every INSERT and UPDATE statement on it, so a list
// of values is one array constant (`x = ANY ('{a,b}'::text[])`), not `x IN ('a', 'b')`, which is
// stored as one constant node per value; and the rules stay what they were.

let test: TestDatabase;
let client: Client;
beforeAll(async () => {
  test = await createTestDatabase();
  client = new Client({ connectionString: test.url });
  await client.connect();
});
afterAll(async () => {
  await client.end();
  await test.drop();
});

/** The error code and constraint of `statement`, run in a transaction rolled back after. */
async function refusal(
  statement: string,
): Promise<{ code?: string | undefined; constraint?: string | undefined }> {
  await client.query('BEGIN');
  try {
    await client.query(statement);
    return {};
  } catch (error) {
    const { code, constraint } = error as { code?: string; constraint?: string };
    return { code, constraint };
  } finally {
    await client.query('ROLLBACK');
  }
}

describe('CHECK constraints', () => {
  it('spell every list of values as one array constant', async () => {
    const { rows } = await client.query<{ name: string; definition: string }>(`
      SELECT c.conrelid::regclass || '.' || c.conname AS name,
             pg_get_constraintdef(c.oid) AS definition
      FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
      WHERE n.nspname = 'public' AND c.contype = 'c'
        AND pg_get_constraintdef(c.oid) LIKE '%ARRAY[%'`);
    expect(rows).toEqual([]);
  });

  it.each([
    ['plans', 'plans_kind_check', "kind = 'bogus'"],
    ['plans', 'plans_chain_check', "chain = 'ethereum'"],
    ['plans', 'plans_status_check', "status = 'done'"],
    ['plan_legs', 'plan_legs_effect_check', "effect = 'bogus'"],
    ['plan_legs', 'plan_legs_status_check', "status = 'bogus'"],
    ['plan_legs', 'plan_legs_released_shape', "status = 'cancelled', released_at = NULL"],
    ['bridge_transfers', 'bridge_transfers_check', 'dest_chain = source_chain'],
    ['bridge_transfers', 'bridge_transfers_speed_check', "speed = 'slow'"],
    ['ledger_accounts', 'ledger_accounts_check', "bucket = 'fees:protocol', kind = 'wallet'"],
    ['outbox_events', 'outbox_events_type_check', "type = 'bogus.event'"],
    ['webhook_subscriptions', 'webhook_subscriptions_event_types_check', "event_types = '{}'"],
  ])('%s still refuses what %s refused (%s)', async (table, constraint, change) => {
    // One row of each table, made to break the rule by an UPDATE (the same check as an INSERT).
    const found = await client.query(`SELECT 1 FROM ${table} LIMIT 1`);
    if (found.rowCount === 0) await seed(table);
    expect(await refusal(`UPDATE ${table} SET ${change}`)).toEqual({ code: '23514', constraint });
  });
});

/** A valid row of `table` to break: inserted in committed form, dropped with the database. */
async function seed(table: string): Promise<void> {
  const plan = `plan_${'a'.repeat(32)}`;
  const base = "'0x' || repeat('1', 40)";
  const rows: Record<string, string[]> = {
    plans: [
      `INSERT INTO plans (id, kind, status, chain, owner, amount_micros, fee_micros, request,
         blockers) VALUES ('${plan}', 'bridge', 'prepared', 'base', ${base}, 10, 0, '{}', '[]')`,
    ],
    plan_legs: [
      `INSERT INTO plan_legs (plan_id, leg_index, action, summary, amount_micros, settles,
         payload) VALUES ('${plan}', 0, 'transfer', 'leg', 10, true, '{}')`,
    ],
    bridge_transfers: [
      `INSERT INTO bridge_transfers (plan_id, rail, speed, source_chain, dest_chain, owner,
         recipient, burn_micros, max_rail_fee_micros, min_received_micros, service_fee_micros)
       VALUES ('${plan}', 'cctp', 'standard', 'base', 'arbitrum', ${base}, ${base}, 10, 0, 9, 0)`,
    ],
    ledger_accounts: [
      `INSERT INTO ledger_accounts (kind, wallet, chain, bucket)
       VALUES ('wallet', ${base}, 'base', 'liquid')`,
    ],
    outbox_events: [
      `INSERT INTO outbox_events (id, type, payload)
       VALUES ('evt_${'b'.repeat(32)}', 'position.updated', '{}')`,
    ],
    webhook_subscriptions: [
      `INSERT INTO webhook_subscriptions (id, owner_key_id, wallets, url, event_types, key_sealed)
       VALUES ('whk_${'c'.repeat(32)}', 'key', '{}', 'https://example.com/hook',
               '{bridge.delivered}', 'sealed')`,
    ],
  };
  for (const statement of rows[table] ?? []) await client.query(statement);
}
