import { readFileSync } from 'node:fs';
import type { Migration } from './migrate';
import {
  CURRENT_SQL_COMMAND,
  CURRENT_SQL_PATH,
  functionOrigins,
  renderMigratedSchema,
} from './renderCurrentSql';

// Rendered once: every test below reads the same migrated database's schema.
let sql: string;
beforeAll(async () => {
  sql = await renderMigratedSchema();
});

it('packages/ledger/sql/current.sql is the schema every migration produces', () => {
  const actual = readFileSync(CURRENT_SQL_PATH, 'utf8');
  if (actual !== sql) {
    throw new Error(
      `packages/ledger/sql/current.sql is stale: run \`${CURRENT_SQL_COMMAND}\` and commit the result`,
    );
  }
});

it('shows each function with its live body and the migration that last defined it', () => {
  expect(sql).toMatch(
    /-- last defined by migration 0011_books_follow_chain\nCREATE OR REPLACE FUNCTION public\.ledger_record_harvests\(/,
  );
  expect(sql).toMatch(
    /-- last defined by migration 0\d{3}_\w+, renamed from ledger_record_leg_outcomes by 0041_guarded_leg_outcomes\nCREATE OR REPLACE FUNCTION public\.ledger_record_leg_outcomes_unguarded\(/,
  );
  expect(sql).toContain('CREATE TABLE "journal_entries" (');
  expect(sql).not.toContain('_svc_migrations');
});

it('names the last migration that (re)defines or renames a function, whatever its spelling', () => {
  const migration = (name: string, script: string): Migration => ({ name, script, checksum: '' });
  const origins = functionOrigins([
    migration('0001_a', 'CREATE FUNCTION f(x int) RETURNS int AS $$ SELECT 1 $$ LANGUAGE sql;'),
    migration('0002_b', 'create or replace function public."f" (x int) returns int'),
    migration('0003_c', 'CREATE OR REPLACE PROCEDURE g() AS $$ $$ LANGUAGE plpgsql;'),
    migration('0004_d', 'ALTER FUNCTION "f"(int) RENAME TO "f_old";\nCREATE FUNCTION f(x int)'),
  ]);
  expect(Object.fromEntries(origins)).toEqual({
    f: 'migration 0004_d',
    f_old: 'migration 0002_b, renamed from f by 0004_d',
    g: 'migration 0003_c',
  });
});
