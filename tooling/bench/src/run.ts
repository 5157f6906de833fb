// `pnpm bench`: measures our code against baselines measured in the same run and prints ratios.
// BENCH_ONLY=http runs the HTTP API part only, BENCH_ONLY=chains the chain adapters only,
// BENCH_ONLY=sdk the SDK bundle size only, BENCH_ONLY=ledger settlements, position reads and
// journal writes of 16 writers on one chain (BENCH_HOTROW=0 skips those) only, BENCH_ONLY=keeper webhook deliveries, commit-to-delivery latency and harvest batches
// only, BENCH_ONLY=autopilot the keeper's autopilot ticks over 10 000 wallets against position
// reads only, BENCH_ONLY=mcp MCP tool calls over stdio against SDK calls and the MCP package size
// only, BENCH_ONLY=bridges bridge plans against one INSERT and mint-to-credit latency only,
// BENCH_ONLY=swaps EVM swap plans prepared against the quote round trip plus one INSERT only;
// BENCH_ONLY=growth settlements against a ledger filled to BENCH_GROWTH_POSTINGS (default 10M)
// against an empty one only; unset runs all but growth (its fill alone takes most of an hour).

const PARTS = [
  'http',
  'chains',
  'sdk',
  'ledger',
  'keeper',
  'autopilot',
  'mcp',
  'bridges',
  'swaps',
  'growth',
] as const;
type Part = (typeof PARTS)[number];

function selectedParts(only: string | undefined): readonly Part[] {
  if (only === undefined || only === '') return PARTS.filter((part) => part !== 'growth');
  const part = PARTS.find((name) => name === only);
  if (!part) throw new Error(`BENCH_ONLY must be one of ${PARTS.join(', ')} (got "${only}")`);
  return [part];
}

async function runPart(part: Part): Promise<void> {
  // Loaded on demand: the HTTP part never pays for the chain SDKs, nor the chain part for pg.
  if (part === 'http') await (await import('./httpBench')).runHttpBench();
  else if (part === 'chains') await (await import('./chains')).runChainBench();
  else if (part === 'ledger') {
    await (await import('./ledgerBench')).runLedgerBench();
    if (process.env['BENCH_HOTROW'] !== '0') await (await import('./hotRowBench')).runHotRowBench();
  } else if (part === 'keeper') await (await import('./keeperBench')).runKeeperBench();
  else if (part === 'autopilot') await (await import('./autopilotBench')).runAutopilotBench();
  else if (part === 'mcp') await (await import('./mcpBench')).runMcpBench();
  else if (part === 'bridges') await (await import('./bridgeBench')).runBridgeBench();
  else if (part === 'swaps') await (await import('./swapBench')).runSwapBench();
  else if (part === 'growth') await (await import('./costGrowthBench')).runCostGrowthBench();
  else (await import('./sdkBench')).runSdkBench();
}

/** Every selected part runs, even after one fails; the run fails at the end naming them. */
async function main(): Promise<void> {
  const failed: string[] = [];
  for (const part of selectedParts(process.env['BENCH_ONLY'])) {
    try {
      await runPart(part);
    } catch (error) {
      failed.push(part);
      process.stderr.write(
        `bench part ${part} failed: ${error instanceof Error ? error.message : String(error)}\n`,
      );
    }
  }
  if (failed.length > 0) throw new Error(`failed parts: ${failed.join(', ')}`);
}

main().then(
  // Every server and bed is stopped by then (the run also ends without this); the explicit exit
  // only guards against a stray handle left by an SDK holding `pnpm bench` open.
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
