// A bed in its own process (`tsx bedServer.ts solana|sui`), so the in-process beds (litesvm,
// the Sui fake) do not share the bench's event loop. Prints `BED <json>` on stdout when ready;
// stops the bed on SIGTERM/SIGINT or when the parent goes away (stdin closes).
import type { BedInfo } from './bedInfo';
import { seedSolanaBed } from './seedSolanaBed';
import { seedSuiBed } from './seedSuiBed';

async function main(): Promise<void> {
  const chain = process.argv[2];
  if (chain !== 'solana' && chain !== 'sui') throw new Error(`unknown bed "${chain}"`);
  const bed: { info: BedInfo; stop: () => Promise<void> } =
    chain === 'solana' ? await seedSolanaBed() : await seedSuiBed();
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    bed.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  process.stdin.on('end', shutdown);
  process.stdin.on('close', shutdown);
  process.stdin.resume();
  process.stdout.write(`BED ${JSON.stringify(bed.info)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bed failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
