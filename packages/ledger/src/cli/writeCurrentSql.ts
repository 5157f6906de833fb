// `pnpm db:current-sql`: rewrites packages/ledger/sql/current.sql from a database migrated with
// every migration.
import { writeFileSync } from 'node:fs';
import { CURRENT_SQL_PATH, renderMigratedSchema } from '../renderCurrentSql';

renderMigratedSchema()
  .then((sql) => {
    writeFileSync(CURRENT_SQL_PATH, sql);
    process.stdout.write(`wrote ${CURRENT_SQL_PATH}\n`);
  })
  .catch((error: unknown) => {
    process.stderr.write(
      `db:current-sql: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
