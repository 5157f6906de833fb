import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';
import type { PoolClient } from 'pg';
import { openBooks } from './books';
import type { Books } from './books';
import { PrismaClient } from './generated/prisma/client';
import { LegSettlements } from './legSettlements';
import type { LegSettlementsOptions } from './legSettlements';
import type { MigrationSession, MigrationTransaction } from './migrate';
import { applyMigrations } from './migrate';
import { pgliteListen, postgresListen } from './notifications';
import { PlanWrites } from './planInsert';
import { pgliteSqlClient, postgresSqlClient } from './sqlClient';
import { GroupedBalanceReader } from './walletReads';

export interface CreateDatabaseOptions {
  /** PostgreSQL URL. Without it, an embedded PGlite database in `dataDir`. */
  readonly databaseUrl?: string;
  readonly dataDir?: string;
  /** Apply pending migrations at start (default true). */
  readonly migrate?: boolean;
  readonly poolSize?: number;
  readonly log?: (message: string) => void;
  /** How concurrent settlements are grouped into statements. */
  readonly settlements?: LegSettlementsOptions;
}

function pgSession(client: PoolClient): MigrationSession {
  return {
    query: async (sql, params) => (await client.query(sql, params ? [...params] : [])).rows,
    exec: async (script) => {
      await client.query(script);
    },
  };
}

/** A transaction on one pooled connection, for the migration runner. */
export function pgMigrationTransaction(pool: Pool): MigrationTransaction {
  return async (work) => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(pgSession(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };
}

/** How long a query waits for a connection while PostgreSQL cannot be reached. */
const CONNECT_TIMEOUT_MS = 5000;
/** How long the user of a checked-out connection that died has to give it back itself. */
const DEAD_CONNECTION_GRACE_MS = 1000;

/**
 * A pool whose connections can never take the process down or hold it up:
 * - every client gets an error listener when it is created, so a connection the server ends
 *   while it is checked out (between two statements of a transaction) is reported instead of
 *   being an unhandled 'error' event; the pool drops it and the next query opens a new one;
 * - a checked-out connection that died and is not given back (Prisma's interactive transaction
 *   whose connection is cut never releases it) is released for its user after a grace, so the
 *   pool's slot comes back and closing the pool does not wait for it forever.
 */
function openPool(options: CreateDatabaseOptions & { databaseUrl: string }): Pool {
  const pool = new Pool({
    connectionString: options.databaseUrl,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  let lost = 0;
  const report = (error: Error) => {
    // One line per burst (a restart ends every connection at once), not one per connection.
    lost += 1;
    if (lost === 1) {
      options.log?.(`database connection lost: ${error.message}`);
      setTimeout(() => (lost = 0), 1000).unref();
    }
  };
  const checkedOut = new Set<PoolClient>();
  pool.on('acquire', (client) => checkedOut.add(client));
  pool.on('release', (_error, client) => checkedOut.delete(client));
  pool.on('error', report);
  pool.on('connect', (client) =>
    client.on('error', (error) => {
      report(error);
      setTimeout(() => {
        if (!checkedOut.delete(client)) return;
        try {
          client.release(error);
        } catch {
          // Given back in the meantime.
        }
      }, DEAD_CONNECTION_GRACE_MS).unref();
    }),
  );
  return pool;
}

async function openPostgres(
  options: CreateDatabaseOptions & { databaseUrl: string },
): Promise<Books> {
  const pool = openPool(options);
  try {
    if (options.migrate !== false) {
      await applyMigrations(pgMigrationTransaction(pool), {
        ...(options.log ? { log: options.log } : {}),
      });
    }
  } catch (error) {
    await pool.end();
    throw error;
  }
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  const sql = postgresSqlClient(pool);
  return openBooks(prisma, {
    sql,
    settlements: new LegSettlements(sql, options.settlements),
    balances: new GroupedBalanceReader(sql),
    plans: new PlanWrites(sql),
    listen: postgresListen(options.databaseUrl, options.log),
    kind: 'postgres',
    close: async () => {
      await prisma.$disconnect();
      await pool.end().catch(() => undefined);
    },
  });
}

export class DatabaseInUseError extends Error {
  override readonly name = 'DatabaseInUseError';
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite is single-process: a second process opening the same directory could corrupt it.
 * A lock file holding the owner's pid refuses the second opener; a stale lock is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  const lockPath = `${dataDir}.lock`;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(lockPath, 'utf8'));
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) {
        throw new DatabaseInUseError(
          `the embedded database ${dataDir} is in use by process ${owner}; stop it first, or set DATABASE_URL`,
        );
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new DatabaseInUseError(`could not lock the embedded database ${dataDir}`);
}

async function openPglite(options: CreateDatabaseOptions): Promise<Books> {
  const dataDir = path.resolve(options.dataDir ?? path.join(process.cwd(), '.data', 'pglite'));
  mkdirSync(dataDir, { recursive: true });
  const unlock = lockDataDir(dataDir);
  try {
    return await openLockedPglite(dataDir, options, unlock);
  } catch (error) {
    unlock();
    throw error;
  }
}

async function openLockedPglite(
  dataDir: string,
  options: CreateDatabaseOptions,
  unlock: () => void,
): Promise<Books> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PrismaPGlite } = await import('pglite-prisma-adapter');
  const pglite = await PGlite.create(dataDir);
  try {
    if (options.migrate !== false) {
      await applyMigrations(
        (work) =>
          pglite.transaction(async (tx) =>
            work({
              query: async (sql, params) =>
                (await tx.query<Record<string, unknown>>(sql, params ? [...params] : [])).rows,
              exec: async (script) => {
                await tx.exec(script);
              },
            }),
          ),
        { advisoryLock: false, ...(options.log ? { log: options.log } : {}) },
      );
    }
  } catch (error) {
    await pglite.close();
    throw error;
  }
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  options.log?.(`embedded PGlite database at ${dataDir}`);
  const sql = pgliteSqlClient(pglite);
  return openBooks(prisma, {
    sql,
    // One connection: one statement at a time.
    settlements: new LegSettlements(sql, { ...options.settlements, maxInFlight: 1 }),
    balances: new GroupedBalanceReader(sql, { maxInFlight: 1 }),
    plans: new PlanWrites(sql),
    listen: pgliteListen(pglite),
    kind: 'pglite',
    close: async () => {
      try {
        await prisma.$disconnect();
        await pglite.close();
      } finally {
        unlock();
      }
    },
  });
}

/**
 * Opens the books: PostgreSQL through @prisma/adapter-pg when `databaseUrl` is given,
 * otherwise embedded PGlite. Pending migrations are applied either way.
 */
export async function createDatabase(options: CreateDatabaseOptions = {}): Promise<Books> {
  return options.databaseUrl
    ? openPostgres({ ...options, databaseUrl: options.databaseUrl })
    : openPglite(options);
}
