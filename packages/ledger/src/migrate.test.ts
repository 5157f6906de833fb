import { Pool } from 'pg';
import { pgMigrationTransaction } from './createDatabase';
import type { Migration } from './migrate';
import { MigrationError, applyMigrations, loadMigrations } from './migrate';
import { createEmptyTestDatabase } from './testing';

/** Runs `work` with pools on a fresh, empty database, then drops it. */
async function withEmptyDatabase(pools: number, work: (pools: Pool[]) => Promise<void>) {
  const empty = await createEmptyTestDatabase();
  const opened = Array.from({ length: pools }, () => {
    const pool = new Pool({ connectionString: empty.url });
    // An idle client closed by the server must fail the query that uses it, not crash the worker.
    pool.on('error', () => undefined);
    return pool;
  });
  try {
    await work(opened);
  } finally {
    await Promise.all(opened.map((pool) => pool.end()));
    await empty.drop();
  }
}

const apply = (pool: Pool, migrations?: readonly Migration[]) =>
  applyMigrations(pgMigrationTransaction(pool), migrations ? { migrations } : {});

const names = () => loadMigrations().map((migration) => migration.name);

describe('applyMigrations (PostgreSQL)', () => {
  it('applies every migration once; a second run applies nothing', () =>
    withEmptyDatabase(1, async ([pool]) => {
      const db = pool as Pool;
      expect(await apply(db)).toEqual(names());
      expect(await apply(db)).toEqual([]);
      const tables = await db.query(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
      );
      expect(tables.rows.map((row) => row.table_name)).toEqual(
        expect.arrayContaining(['_svc_migrations', 'api_keys']),
      );
    }));

  it('two runners at once apply each migration exactly once', () =>
    withEmptyDatabase(2, async ([a, b]) => {
      const [ra, rb] = await Promise.all([apply(a as Pool), apply(b as Pool)]);
      expect([...ra, ...rb].sort()).toEqual(names());
    }));

  it('refuses to run when an applied migration was edited', () =>
    withEmptyDatabase(1, async ([pool]) => {
      await apply(pool as Pool);
      const edited = loadMigrations().map((migration, index) =>
        index === 0 ? { ...migration, checksum: 'changed' } : migration,
      );
      await expect(apply(pool as Pool, edited)).rejects.toThrow(MigrationError);
    }));

  it('a failing script leaves nothing half-applied', () =>
    withEmptyDatabase(1, async ([pool]) => {
      const broken = [
        { name: '0001_ok', checksum: 'a', script: 'CREATE TABLE t1 (id INT);' },
        { name: '0002_bad', checksum: 'b', script: 'CREATE TABLE t2 (id INT); SELECT nope;' },
      ];
      await expect(apply(pool as Pool, broken)).rejects.toThrow();
      const tables = await (pool as Pool).query(
        "SELECT to_regclass('t1') AS t1, to_regclass('_svc_migrations') AS m",
      );
      expect(tables.rows[0]).toEqual({ t1: null, m: null });
    }));

  it('keeps plpgsql bodies whole (no splitting on ;)', () =>
    withEmptyDatabase(1, async ([pool]) => {
      const script = `CREATE FUNCTION two() RETURNS int AS $$ BEGIN PERFORM 1; RETURN 2; END; $$ LANGUAGE plpgsql;`;
      await apply(pool as Pool, [{ name: '0001_fn', checksum: 'x', script }]);
      expect((await (pool as Pool).query('SELECT two() AS v')).rows[0]).toEqual({ v: 2 });
    }));
});
