// `pnpm ledger:reconcile`: compares the books with the chain once (as the keeper's
// `reconciliation` job does), prints every drift kind with its count and size, and exits 1 when
// a drift is at or above the threshold (SVC_KEEPER_RECONCILE_THRESHOLD_MICROS, or
// `--threshold <micros>`). DATABASE_URL, else the embedded PGlite directory (stop the API first).
import { errorMessage, formatMicros } from '@yieldrouter/schemas';
import { createServiceLogger, createServices, reconcileBooks } from '@yieldrouter/engine';
import { parseKeeperSettings } from '@yieldrouter/jobs';

function thresholdArgument(argv: readonly string[]): bigint | undefined {
  const index = argv.indexOf('--threshold');
  if (index < 0) return undefined;
  const value = argv[index + 1] ?? '';
  if (!/^(0|[1-9][0-9]{0,17})$/.test(value)) {
    throw new Error(`--threshold: ${value || '(missing)'} is not an integer number of micros`);
  }
  return BigInt(value);
}

async function main(): Promise<void> {
  const { service, keeper } = parseKeeperSettings(process.env);
  const thresholdMicros =
    thresholdArgument(process.argv.slice(2)) ?? keeper.reconciliation.thresholdMicros;
  const dataDir = process.env['SVC_DATA_DIR'] || '.data/pglite';
  // Its output is the report: the services log nothing on stdout.
  const services = await createServices({
    config: service,
    dataDir,
    logger: createServiceLogger('ledger:reconcile', 'silent'),
  });
  const db = services.books;
  try {
    const report = await reconcileBooks({
      db,
      adapters: services.adapters,
      venues: service.venues,
      treasuries: service.treasuries,
      thresholdMicros,
      trigger: 'cli',
      now: () => new Date(),
    });
    const out = (line: string) => process.stdout.write(`${line}\n`);
    out(
      `reconciliation ${report.runId} (${db.kind}): ${report.positions} positions and ` +
        `${report.holdings} wallet holdings read, ` +
        `${report.unavailable} unreadable, threshold ${formatMicros(thresholdMicros)} micros`,
    );
    for (const [kind, total] of Object.entries(report.drifts)) {
      out(
        `  ${kind.padEnd(24)} ${String(total.count).padStart(7)}  ${formatMicros(total.micros)} micros`,
      );
    }
    out(`  above threshold: ${report.aboveThreshold} (each raised reconciliation.drift)`);
    if (report.aboveThreshold > 0) process.exitCode = 1;
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`ledger:reconcile: ${errorMessage(error)}\n`);
  process.exit(1);
});
