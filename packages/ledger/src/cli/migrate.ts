// `pnpm db:migrate`: applies pending migrations to DATABASE_URL, or to the embedded PGlite
// directory (SVC_DATA_DIR, default .data/pglite) when DATABASE_URL is unset.
import { createDatabase } from '../createDatabase';

async function main(): Promise<void> {
  const databaseUrl = process.env['DATABASE_URL'] || undefined;
  const dataDir = process.env['SVC_DATA_DIR'] || undefined;
  const db = await createDatabase({
    ...(databaseUrl ? { databaseUrl } : {}),
    ...(dataDir ? { dataDir } : {}),
    log: (message) => process.stdout.write(`${message}\n`),
  });
  await db.close();
  process.stdout.write(`migrations up to date (${db.kind})\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`db:migrate: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
