// `pnpm demo [--keep]`: the local beds, the API and the keeper (embedded PGlite; DATABASE_URL
// for PostgreSQL), a scripted agent through the real flow, then the ledger verified. Exit 1 on
// any problem. --keep leaves the stack running (for the console) until Ctrl-C.
import { runAgent } from './agent';
import { runKaminoAgent } from './kaminoAgent';
import { startDemoStack } from './demoStack';
import type { DemoStack } from './demoStack';

const keep = process.argv.includes('--keep');
const print = (line: string) => process.stdout.write(`${line}\n`);
const started = Date.now();

/**
 * Resolves on the first SIGINT / SIGTERM. The listeners stay registered (`on`, not `once`): the
 * beds' own signal hook re-raises the signal when it finds no other listener, which would end
 * this process before the API and the keeper are stopped.
 */
function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.on('SIGINT', () => resolve());
    process.on('SIGTERM', () => resolve());
  });
}

async function main(): Promise<number> {
  print(
    'Starting the local beds (anvil ×2, Solana, Sui fake, yields fake), the API and the keeper',
  );
  let stack: DemoStack | undefined;
  const interrupted = untilSignal().then(() => 'interrupted' as const);
  try {
    stack = await startDemoStack({
      databaseUrl: process.env['DATABASE_URL'] || undefined,
      log: print,
    });
    print(`API ${stack.baseUrl} on ${stack.database}`);
    print(`Console: ${stack.baseUrl}/console (owner key: ${stack.ownerKey})`);
    print(`  agent key (wallet ${stack.wallet} only): ${stack.agentKey}`);
    print(`Webhook receiver: ${stack.webhookReceiver.url}`);
    const demoStack = stack;
    const run = async () => {
      const wallet = await runAgent(demoStack, print);
      await runKaminoAgent(demoStack, print);
      return wallet;
    };
    const outcome = await Promise.race([run(), interrupted]);
    if (outcome === 'interrupted') print('\ninterrupted');
    else if (keep) {
      print(
        `\nThe stack stays up: open ${stack.baseUrl}/console, paste the owner (or agent) key, wallet ${outcome}`,
      );
      print('Ctrl-C stops everything.');
      await interrupted;
    }
  } finally {
    print('\nstopping the API, the keeper and the beds');
    await stack?.stop();
  }
  const report = await stack.verify();
  for (const line of report.lines) print(line);
  print(`demo ${report.ok ? 'done' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return report.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `demo failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
