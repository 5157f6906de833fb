// `pnpm db:current-sql`: rewrites packages/ledger/sql/current.sql from a database migrated with
// every migration (a clone of the test template, on the PostgreSQL of TEST_DATABASE_URL or
// 127.0.0.1:5432), then drops that database.
import { writeFileSync } from 'node:fs';
import { Client } from 'pg';
import { CURRENT_SQL_PATH, renderCurrentSql } from '../renderCurrentSql';
import { createTestDatabase } from '../testing';

async function main(): Promise<void> {
  const database = await createTestDatabase();
  const client = new Client({ connectionString: database.url });
  try {
    await client.connect();
    writeFileSync(CURRENT_SQL_PATH, await renderCurrentSql(client));
    process.stdout.write(`wrote ${CURRENT_SQL_PATH}\n`);
  } finally {
    await client.end();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `db:current-sql: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
