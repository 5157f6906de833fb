import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from 'pg';
import { createDatabase } from './createDatabase';
import { loadMigrations } from './migrate';

// Test databases are cloned from a template database (CREATE DATABASE … TEMPLATE, a file copy
// in PostgreSQL) instead of running every migration again for each one: the template is built
// once per set of migrations and kept, named after their checksums, so every test process, every
// worker and every later run on the same PostgreSQL clones it. A changed or added migration
// gives another name, hence a fresh template; a template is never edited in place.

/** Any constant works; the lock is taken in the admin database only, around a build. */
const TEMPLATE_LOCK_KEY = 7_311_560_002;

/** The template's name: `svc_tpl_` and a digest of every migration's name and checksum. */
export function testTemplateName(): string {
  const digest = createHash('sha256');
  for (const migration of loadMigrations())
    digest.update(`${migration.name}:${migration.checksum}\n`);
  return `svc_tpl_${digest.digest('hex').slice(0, 16)}`;
}

const databaseUrl = (adminUrl: string, name: string) => {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

const exists = async (client: Client, name: string) =>
  (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;

/**
 * The migrated template's name, built now when this PostgreSQL has none for these migrations.
 * Concurrent callers (jest workers, parallel runs) wait on one advisory lock; the build runs
 * under a temporary name and is renamed only once every migration applied, so a build that
 * died half way is never cloned (its leftover is dropped by the next build).
 */
export async function ensureTestTemplate(client: Client, adminUrl: string): Promise<string> {
  const name = testTemplateName();
  if (await exists(client, name)) return name;
  await client.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
  try {
    if (await exists(client, name)) return name;
    const building = `${name}_build_${randomBytes(4).toString('hex')}`;
    const leftovers = await client.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE 'svc\\_tpl\\_%\\_build\\_%'",
    );
    for (const { datname } of leftovers.rows) {
      await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    }
    await client.query(`CREATE DATABASE ${building}`);
    try {
      const db = await createDatabase({
        databaseUrl: databaseUrl(adminUrl, building),
        poolSize: 1,
      });
      await db.close();
      await client.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    } catch (error) {
      await client.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      throw error;
    }
    return name;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY]);
  }
}

/**
 * The migrated PGlite template's data directory (in the system's temporary directory, named as
 * the PostgreSQL template is), built now when there is none: a fresh PGlite data directory takes
 * seconds to initialise and migrate, a copy of this one opens in under one. Built in a directory
 * of its own and renamed into place once migrated, so a concurrent or interrupted build is never
 * copied; the loser of a race drops its own build.
 */
export async function ensurePgliteTemplate(): Promise<string> {
  const template = path.join(tmpdir(), testTemplateName().replace('svc_tpl_', 'svc-tpl-pglite-'));
  if (existsSync(template)) return template;
  const building = `${template}.build-${randomBytes(4).toString('hex')}`;
  try {
    const db = await createDatabase({ dataDir: building });
    await db.close();
    renameSync(building, template);
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    rmSync(`${building}.lock`, { force: true });
    if (!existsSync(template)) throw error;
  }
  return template;
}

/** A fresh PGlite data directory at `dataDir`: a copy of the migrated template. */
export async function copyPgliteTemplate(dataDir: string): Promise<void> {
  cpSync(await ensurePgliteTemplate(), dataDir, { recursive: true });
}
