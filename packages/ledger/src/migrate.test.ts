import { Pool } from 'pg';
import { pgMigrationTransaction } from './createDatabase';
import { MigrationError, applyMigrations, loadMigrations } from './migrate';
import { createEmptyTestDatabase } from './testing';

describe('applyMigrations (PostgreSQL)', () => {
  it('applies every migration once; a second run applies nothing', async () => {
    const empty = await createEmptyTestDatabase();
    const pool = new Pool({ connectionString: empty.url });
    try {
      const first = await applyMigrations(pgMigrationTransaction(pool));
      expect(first).toEqual(loadMigrations().map((migration) => migration.name));
      expect(await applyMigrations(pgMigrationTransaction(pool))).toEqual([]);
      const tables = await pool.query(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
      );
      expect(tables.rows.map((row) => row.table_name)).toEqual(
        expect.arrayContaining(['_svc_migrations', 'api_keys']),
      );
    } finally {
      await pool.end();
      await empty.drop();
    }
  });

  it('two runners at once apply each migration exactly once', async () => {
    const empty = await createEmptyTestDatabase();
    const a = new Pool({ connectionString: empty.url });
    const b = new Pool({ connectionString: empty.url });
    try {
      const [ra, rb] = await Promise.all([
        applyMigrations(pgMigrationTransaction(a)),
        applyMigrations(pgMigrationTransaction(b)),
      ]);
      expect([...ra, ...rb].sort()).toEqual(loadMigrations().map((migration) => migration.name));
    } finally {
      await a.end();
      await b.end();
      await empty.drop();
    }
  });

  it('refuses to run when an applied migration was edited', async () => {
    const empty = await createEmptyTestDatabase();
    const pool = new Pool({ connectionString: empty.url });
    try {
      await applyMigrations(pgMigrationTransaction(pool));
      const edited = loadMigrations().map((migration, index) =>
        index === 0 ? { ...migration, checksum: 'changed' } : migration,
      );
      await expect(
        applyMigrations(pgMigrationTransaction(pool), { migrations: edited }),
      ).rejects.toThrow(MigrationError);
    } finally {
      await pool.end();
      await empty.drop();
    }
  });

  it('a failing script leaves nothing half-applied', async () => {
    const empty = await createEmptyTestDatabase();
    const pool = new Pool({ connectionString: empty.url });
    try {
      const broken = [
        { name: '0001_ok', checksum: 'a', script: 'CREATE TABLE t1 (id INT);' },
        { name: '0002_bad', checksum: 'b', script: 'CREATE TABLE t2 (id INT); SELECT nope;' },
      ];
      await expect(
        applyMigrations(pgMigrationTransaction(pool), { migrations: broken }),
      ).rejects.toThrow();
      const tables = await pool.query(
        "SELECT to_regclass('t1') AS t1, to_regclass('_svc_migrations') AS m",
      );
      expect(tables.rows[0]).toEqual({ t1: null, m: null });
    } finally {
      await pool.end();
      await empty.drop();
    }
  });

  it('keeps plpgsql bodies whole (no splitting on ;)', async () => {
    const empty = await createEmptyTestDatabase();
    const pool = new Pool({ connectionString: empty.url });
    try {
      const script = `CREATE FUNCTION two() RETURNS int AS $$ BEGIN PERFORM 1; RETURN 2; END; $$ LANGUAGE plpgsql;`;
      await applyMigrations(pgMigrationTransaction(pool), {
        migrations: [{ name: '0001_fn', checksum: 'x', script }],
      });
      expect((await pool.query('SELECT two() AS v')).rows[0]).toEqual({ v: 2 });
    } finally {
      await pool.end();
      await empty.drop();
    }
  });
});
