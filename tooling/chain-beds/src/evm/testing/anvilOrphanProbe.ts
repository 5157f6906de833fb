// Run by startAnvil.test.ts in a child process: starts anvil, prints its pid, then either exits
// without stopping it once its stdin ends ('exit') or waits to be signalled ('wait'). The bed
// must not leave it behind.
import { startAnvil } from '../startAnvil';

async function probe(mode: string | undefined): Promise<void> {
  const anvil = await startAnvil({ chainId: 31337 });
  process.stdout.write(`${JSON.stringify({ pid: anvil.pid })}\n`);
  if (mode === 'exit') {
    process.stdin.resume();
    process.stdin.once('end', () => process.exit(0));
    return;
  }
  setInterval(() => undefined, 1_000);
}

void probe(process.argv[2]);
