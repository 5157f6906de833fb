import type { Books } from './books';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { createDatabase } from './createDatabase';
import { recordBridgeFailure } from './bridgeFailures';
import { postJournalEntry } from './journal';
import type { LegOutcomeInput } from './legSettlements';
import { insertPlan } from './planInsert';
import { copyPgliteTemplate, ensureTestTemplate } from './testDatabaseTemplate';

export const TEST_ADMIN_URL =
  process.env['TEST_DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  readonly url: string;
  readonly db: Books;
  drop(): Promise<void>;
}

async function admin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: TEST_ADMIN_URL, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`PostgreSQL is required for this test (${TEST_ADMIN_URL}): ${String(error)}`);
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh, uniquely named database with migrations applied: a clone of the migrated template
 * (`ensureTestTemplate`, built once per set of migrations), so no test migrates a database of
 * its own. Fails (never skips) without Postgres.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `svc_test_${randomBytes(6).toString('hex')}`;
  await admin(async (client) => {
    const template = await ensureTestTemplate(client, TEST_ADMIN_URL);
    await client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  });
  const url = new URL(TEST_ADMIN_URL);
  url.pathname = `/${name}`;
  const db = await createDatabase({ databaseUrl: url.toString(), poolSize: 5 });
  return {
    url: url.toString(),
    db,
    drop: async () => {
      await db.close();
      await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/**
 * A fresh embedded PGlite database (the README's first command runs on one) in a temporary
 * directory, migrations applied: a copy of the migrated template's data directory
 * (`ensurePgliteTemplate`); `url` is empty. Under jest it needs
 * `NODE_OPTIONS=--experimental-vm-modules` (PGlite is an ES module loaded by `import()`).
 */
export async function createTestPgliteDatabase(): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-test-pglite-'));
  try {
    await copyPgliteTemplate(dataDir);
    const db = await createDatabase({ dataDir });
    return {
      url: '',
      db,
      drop: async () => {
        await db.close();
        rmSync(dataDir, { recursive: true, force: true });
        rmSync(`${dataDir}.lock`, { force: true });
      },
    };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Ends every connection to the database of `databaseUrl` (`pg_terminate_backend`, as a restart
 * or failover does), never another database's. Returns how many were ended.
 */
export async function endDatabaseConnections(databaseUrl: string): Promise<number> {
  const name = new URL(databaseUrl).pathname.slice(1);
  return admin(async (client) => {
    const result = await client.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [name],
    );
    return result.rowCount ?? 0;
  });
}

/** An empty database without migrations (for migration tests). */
export async function createEmptyTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `svc_test_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(TEST_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}

/**
 * A route plan on Solana whose one leg funds `wallet`, with pending_in reserved as prepareRoute
 * leaves it (external → pending_in): what a settlement test settles. Returns the plan id.
 */
export async function reserveRouteLeg(
  db: Books,
  {
    wallet,
    amountMicros,
    planId = `plan_${randomBytes(16).toString('hex')}`,
  }: {
    wallet: string;
    amountMicros: bigint;
    planId?: string;
  },
): Promise<string> {
  await insertPlan(db, {
    id: planId,
    kind: 'route',
    status: 'prepared',
    chain: 'solana',
    venueId: null,
    owner: wallet,
    wallet,
    amountMicros,
    feeMicros: 0n,
    request: {},
    blockers: [],
    legs: [
      {
        action: 'deposit',
        summary: 'fund the router',
        amountMicros,
        settles: true,
        payload: {},
        effect: 'fund_liquid',
      },
    ],
  });
  await db.transaction((tx) =>
    postJournalEntry(tx, {
      kind: 'route.prepared',
      planId,
      postings: [
        { account: { system: 'external', chain: 'solana' }, amountMicros: -amountMicros },
        { account: { wallet, chain: 'solana', bucket: 'pending_in' }, amountMicros },
      ],
    }),
  );
  return planId;
}

/**
 * A reservation no leg holds (`amountMicros` into the wallet's pending_in), forced past the
 * database rule that refuses one, so reconciliation and verifyLedger can be shown finding it.
 */
export async function forceReservationWithoutLeg(
  db: Books,
  { wallet, amountMicros }: { wallet: string; amountMicros: bigint },
): Promise<void> {
  await db.$executeRawUnsafe('ALTER TABLE postings DISABLE TRIGGER postings_reservations');
  try {
    await db.transaction((tx) =>
      postJournalEntry(tx, {
        kind: 'test.rogue',
        postings: [
          { account: { system: 'external', chain: 'solana' }, amountMicros: -amountMicros },
          { account: { wallet, chain: 'solana', bucket: 'pending_in' }, amountMicros },
        ],
      }),
    );
  } finally {
    await db.$executeRawUnsafe('ALTER TABLE postings ENABLE TRIGGER postings_reservations');
  }
}

export { startTcpProxy } from './tcpProxy';
export type { TcpProxy } from './tcpProxy';

/**
 * The outcome settleLeg records for the confirmed leg of a reserveRouteLeg plan (pending_in →
 * liquid), with no events and no audit rows: add them where a test needs them.
 */
export function confirmedRouteOutcome(
  planId: string,
  wallet: string,
  amountMicros: bigint,
  txId: string,
): LegOutcomeInput {
  return {
    planId,
    legIndex: 0,
    txId,
    outcome: {
      status: 'confirmed',
      settledAmountMicros: amountMicros,
      shares: null,
      reviewReason: null,
    },
    expect: ['unsigned', 'submitted'],
    entry: {
      kind: 'route.settled',
      dedupeKey: `settle:${planId}:0`,
      planId,
      legIndex: 0,
      txId,
      postings: [
        { account: { wallet, chain: 'solana', bucket: 'pending_in' }, amountMicros: -amountMicros },
        { account: { wallet, chain: 'solana', bucket: 'liquid' }, amountMicros },
      ],
    },
    events: [],
    now: new Date(),
  };
}

export const BRIDGE_TEST_OWNER = '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc';
/** What each test bridge burned (10 USDC less a 10 bps fee), and so holds in `in_flight`. */
export const BRIDGE_TEST_BURNED = 9_990_000n;

/**
 * A Base → Arbitrum bridge plan whose burn leg settled at `settledAt`: the transfer row, the
 * confirmed burn leg and what the burn moved from Base's outside into the owner's `in_flight`.
 */
export async function insertSettledBridge(
  db: Books,
  { speed, settledAt }: { speed: 'standard' | 'fast'; settledAt: Date },
): Promise<{ planId: string; burnTxId: string }> {
  const planId = `plan_${randomBytes(16).toString('hex')}`;
  await insertPlan(db, {
    id: planId,
    kind: 'bridge',
    status: 'prepared',
    chain: 'base',
    venueId: null,
    owner: BRIDGE_TEST_OWNER,
    wallet: BRIDGE_TEST_OWNER,
    amountMicros: 10_000_000n,
    feeMicros: 10_000n,
    request: {},
    blockers: [],
    legs: [
      {
        action: 'burn',
        summary: 'burn',
        amountMicros: BRIDGE_TEST_BURNED,
        settles: true,
        payload: {},
        effect: 'bridge_burn',
      },
    ],
    bridgeTransfer: {
      rail: 'cctp',
      speed,
      sourceChain: 'base',
      destChain: 'arbitrum',
      owner: BRIDGE_TEST_OWNER,
      recipient: BRIDGE_TEST_OWNER,
      burnMicros: BRIDGE_TEST_BURNED,
      maxRailFeeMicros: 0n,
      minReceivedMicros: BRIDGE_TEST_BURNED,
      serviceFeeMicros: 0n,
      feeRecipient: null,
    },
  });
  const burnTxId = `0x${planId.slice(5).padEnd(64, '0')}`;
  await db.$executeRaw`
    UPDATE plan_legs SET status = 'confirmed', tx_id = ${burnTxId},
                         settled_amount_micros = ${BRIDGE_TEST_BURNED}, settled_at = ${settledAt}
    WHERE plan_id = ${planId}`;
  await db.transaction((tx) =>
    postJournalEntry(tx, {
      kind: 'bridge_burn',
      dedupeKey: `bridge-burn:${planId}`,
      planId,
      txId: burnTxId,
      postings: [
        { account: { system: 'external', chain: 'base' }, amountMicros: -BRIDGE_TEST_BURNED },
        {
          account: { wallet: BRIDGE_TEST_OWNER, chain: 'base', bucket: 'in_flight' },
          amountMicros: BRIDGE_TEST_BURNED,
        },
      ],
    }),
  );
  return { planId, burnTxId };
}

/** Marks a test bridge failed at `now`, as the expiry does (bridge.failed; the amount stays). */
export function failSettledBridge(db: Books, planId: string, now: Date) {
  return recordBridgeFailure(db, {
    planId,
    reason: 'attestation_window_expired: test',
    rescueHint: 'rescue it',
    rescuePath: '/api/v1/svc/bridge/rescue',
    now,
  });
}
