import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** What the runner needs from a connection already inside a transaction. */
export interface MigrationSession {
  query(sql: string, params?: readonly unknown[]): Promise<Array<Record<string, unknown>>>;
  /** Runs a whole multi-statement script as it is (plpgsql bodies stay intact). */
  exec(script: string): Promise<void>;
}

/** Runs `work` inside one transaction on one connection. */
export type MigrationTransaction = <T>(
  work: (session: MigrationSession) => Promise<T>,
) => Promise<T>;

export interface Migration {
  readonly name: string;
  readonly checksum: string;
  readonly script: string;
}

export const MIGRATIONS_DIR = path.join(__dirname, '..', 'prisma', 'migrations');

/** The migrations shipped with this package, in name order. */
export function loadMigrations(dir: string = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const script = readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, script, checksum: createHash('sha256').update(script).digest('hex') };
    });
}

export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

export interface ApplyMigrationsOptions {
  readonly migrations?: readonly Migration[];
  /** Serialize concurrent runners (PostgreSQL); PGlite has one connection and skips it. */
  readonly advisoryLock?: boolean;
  readonly log?: (message: string) => void;
}

// Any constant works; it only has to be the same for every runner.
const LOCK_KEY = 7_311_560_001;

/**
 * Applies pending migrations in one transaction, under an advisory lock, recording each in
 * `_svc_migrations`. Refuses to run when an applied migration's file has changed since.
 * Returns the names it applied.
 */
export async function applyMigrations(
  transaction: MigrationTransaction,
  options: ApplyMigrationsOptions = {},
): Promise<string[]> {
  const migrations = options.migrations ?? loadMigrations();
  return transaction(async (session) => {
    if (options.advisoryLock !== false) {
      await session.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
    }
    await session.exec(
      `CREATE TABLE IF NOT EXISTS "_svc_migrations" (
        "name" TEXT PRIMARY KEY,
        "checksum" TEXT NOT NULL,
        "applied_at" TIMESTAMPTZ NOT NULL DEFAULT now()
      )`,
    );
    const rows = await session.query('SELECT "name", "checksum" FROM "_svc_migrations"');
    const applied = new Map(rows.map((row) => [String(row['name']), String(row['checksum'])]));
    for (const [name, checksum] of applied) {
      const shipped = migrations.find((migration) => migration.name === name);
      if (shipped && shipped.checksum !== checksum) {
        throw new MigrationError(
          `migration ${name} was edited after it was applied; add a new migration instead`,
        );
      }
    }
    const done: string[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.name)) continue;
      await session.exec(migration.script);
      await session.query('INSERT INTO "_svc_migrations" ("name", "checksum") VALUES ($1, $2)', [
        migration.name,
        migration.checksum,
      ]);
      options.log?.(`applied migration ${migration.name}`);
      done.push(migration.name);
    }
    return done;
  });
}
