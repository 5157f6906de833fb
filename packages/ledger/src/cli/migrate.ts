// `pnpm db:migrate`: applies pending migrations to DATABASE_URL, or to the embedded PGlite
// directory (SVC_DATA_DIR, default .data/pglite) when DATABASE_URL is unset.
import { openDatabaseFromEnv } from './openFromEnv';

async function main(): Promise<void> {
  const db = await openDatabaseFromEnv({
    log: (message) => process.stdout.write(`${message}\n`),
  });
  await db.close();
  process.stdout.write(`migrations up to date (${db.kind})\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`db:migrate: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
