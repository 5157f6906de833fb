// Run by testDatabaseTemplate.test.ts in its own process (PGlite's WebAssembly loader wants real
// ESM, which jest's CommonJS sandbox does not give it): two test PGlite databases, and when each
// of their migrations was applied.
import { createTestPgliteDatabase } from '../testing';

async function appliedAt(): Promise<string[]> {
  const test = await createTestPgliteDatabase();
  try {
    const rows = await test.db.$queryRawUnsafe<Array<{ name: string; at: string }>>(
      'SELECT "name", "applied_at"::text AS "at" FROM "_svc_migrations" ORDER BY "name"',
    );
    return rows.map((row) => `${row.name} ${row.at}`);
  } finally {
    await test.drop();
  }
}

async function main() {
  const startedAt = new Date().toISOString();
  const first = await appliedAt();
  const second = await appliedAt();
  process.stdout.write(JSON.stringify({ startedAt, first, second }));
}

main().catch((error: unknown) => {
  process.stderr.write(String(error instanceof Error ? error.stack : error));
  process.exit(1);
});
