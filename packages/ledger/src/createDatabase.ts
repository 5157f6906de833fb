import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';
import type { PoolClient } from 'pg';
import { PrismaClient } from './generated/prisma/client';
import type { MigrationSession, MigrationTransaction } from './migrate';
import { applyMigrations } from './migrate';

export interface Database {
  readonly prisma: PrismaClient;
  readonly kind: 'postgres' | 'pglite';
  close(): Promise<void>;
}

export interface CreateDatabaseOptions {
  /** PostgreSQL URL. Without it, an embedded PGlite database in `dataDir`. */
  readonly databaseUrl?: string;
  readonly dataDir?: string;
  /** Apply pending migrations at start (default true). */
  readonly migrate?: boolean;
  readonly poolSize?: number;
  readonly log?: (message: string) => void;
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

async function openPostgres(options: CreateDatabaseOptions & { databaseUrl: string }) {
  const pool = new Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
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
  return {
    prisma,
    kind: 'postgres' as const,
    close: async () => {
      await prisma.$disconnect();
      await pool.end().catch(() => undefined);
    },
  };
}

async function openPglite(options: CreateDatabaseOptions) {
  const dataDir = path.resolve(options.dataDir ?? path.join(process.cwd(), '.data', 'pglite'));
  mkdirSync(dataDir, { recursive: true });
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
  return {
    prisma,
    kind: 'pglite' as const,
    close: async () => {
      await prisma.$disconnect();
      await pglite.close();
    },
  };
}

/**
 * Opens the database: PostgreSQL through @prisma/adapter-pg when `databaseUrl` is given,
 * otherwise embedded PGlite. Pending migrations are applied either way.
 */
export async function createDatabase(options: CreateDatabaseOptions = {}): Promise<Database> {
  return options.databaseUrl
    ? openPostgres({ ...options, databaseUrl: options.databaseUrl })
    : openPglite(options);
}
