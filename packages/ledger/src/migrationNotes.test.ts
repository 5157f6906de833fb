import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MIGRATIONS_DIR, loadMigrations } from './migrate';

// Every migration after 0040 carries a NOTES.md beside its migration.sql saying why it exists
// (docs/ledger.md, "Migrations"): the SQL says what changes, the note why.
const FIRST_WITH_NOTES = 41;

it('every migration numbered above 0040 has a NOTES.md saying why', () => {
  const missing = loadMigrations()
    .map((migration) => migration.name)
    .filter((name) => Number.parseInt(name.slice(0, 4), 10) >= FIRST_WITH_NOTES)
    .filter((name) => {
      const notes = path.join(MIGRATIONS_DIR, name, 'NOTES.md');
      return !existsSync(notes) || readFileSync(notes, 'utf8').trim() === '';
    });
  expect(missing).toEqual([]);
});
