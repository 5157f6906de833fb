// `pnpm ledger:verify`: checks every ledger invariant over DATABASE_URL (or the embedded
// PGlite directory) and exits 1 when any is broken.
import { openDatabaseFromEnv } from './openFromEnv';
import { verifyLedger } from '../verifyLedger';

async function main(): Promise<void> {
  // Read-only: verifying never applies migrations to the database it checks.
  const db = await openDatabaseFromEnv({ migrate: false });
  try {
    const report = await verifyLedger(db);
    process.stdout.write(
      `ledger (${db.kind}): ${report.entries} entries, ${report.postings} postings, ` +
        `${report.accounts} accounts — ${report.ok ? 'clean' : `${report.problems.length} problems`}\n`,
    );
    for (const problem of report.problems) {
      process.stdout.write(`  ${problem.check}: ${problem.detail}\n`);
    }
    if (!report.ok) process.exitCode = 1;
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `ledger:verify: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
