// The MCP part of `pnpm bench`: discovery tool calls per second over stdio (the
// @yieldrouter/mcp command) against the same GET through the SDK, in the same run, and the size
// of the MCP package.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createClient } from '@yieldrouter/sdk';
import { withDatabase } from './benchDatabase';
import type { Server } from './httpBench';
import { median, startServer } from './httpBench';

const CALLS = Number(process.env['BENCH_MCP_CALLS'] ?? 150);
const ROUNDS = Number(process.env['BENCH_MCP_ROUNDS'] ?? 12);
const TARGET = 0.7;
const mcpRoot = dirname(require.resolve('@yieldrouter/mcp/package.json'));

/** Calls per second of `call`, run `CALLS` times one after another. */
async function callsPerSecond(call: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let index = 0; index < CALLS; index += 1) await call();
  return CALLS / ((performance.now() - started) / 1000);
}

async function benchCalls(apiUrl: string): Promise<void> {
  const sdk = createClient({ baseUrl: apiUrl });
  const mcp = new Client({ name: 'yieldrouter-bench', version: '0.0.0' });
  await mcp.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(mcpRoot, 'bin/yieldrouter-mcp.cjs')],
      env: { PATH: process.env['PATH'] ?? '', SVC_API_URL: apiUrl },
    }),
  );
  try {
    // As a host does before offering the tools: the SDK client then checks every structured
    // result against the tool's output schema.
    await mcp.listTools();
    const viaSdk = () => sdk.listOpportunities();
    const viaMcp = async () => {
      const result = await mcp.callTool({ name: 'listOpportunities', arguments: {} });
      if (result.isError) throw new Error(`listOpportunities failed: ${JSON.stringify(result)}`);
    };
    // Warm both paths (JIT, connections, the discovery snapshot).
    for (let index = 0; index < 50; index += 1) await Promise.all([viaSdk(), viaMcp()]);
    const sdkRates: number[] = [];
    const mcpRates: number[] = [];
    const ratios: number[] = [];
    // Short rounds, the order swapped every round: this shared machine's speed drifts from
    // second to second, and each ratio compares two runs a second apart.
    for (let round = 0; round < ROUNDS; round += 1) {
      const first = round % 2 === 0 ? viaSdk : viaMcp;
      const a = await callsPerSecond(first);
      const b = await callsPerSecond(first === viaSdk ? viaMcp : viaSdk);
      const [s, m] = first === viaSdk ? [a, b] : [b, a];
      sdkRates.push(s);
      mcpRates.push(m);
      ratios.push(m / s);
    }
    process.stdout.write(
      [
        `listOpportunities over stdio MCP vs GET /api/v1/svc/opportunities through the SDK`,
        `  (${ROUNDS} rounds of ${CALLS} sequential calls)`,
        `  sdk  ${median(sdkRates).toFixed(0).padStart(6)} calls/s`,
        `  mcp  ${median(mcpRates).toFixed(0).padStart(6)} calls/s`,
        `  ratio mcp/sdk calls/s ${median(ratios).toFixed(3)} median of per-round ratios ` +
          `(range ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}; ` +
          `target >= ${TARGET})`,
        '',
      ].join('\n'),
    );
  } finally {
    await mcp.close();
  }
}

/** The published package as npm would pack it: the tarball and what it unpacks to. */
function reportPackageSize(): void {
  execFileSync(join(mcpRoot, 'node_modules/.bin/tsup'), ['--silent'], { cwd: mcpRoot });
  const [pack] = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: mcpRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  ) as { size: number; unpackedSize: number; entryCount: number }[];
  process.stdout.write(
    `@yieldrouter/mcp package: ${(pack!.size / 1024).toFixed(1)} kB packed, ` +
      `${(pack!.unpackedSize / 1024).toFixed(1)} kB unpacked, ${pack!.entryCount} files ` +
      '(dependencies not counted: @modelcontextprotocol/sdk, @yieldrouter/sdk, zod)\n',
  );
}

/** Builds the MCP package, then measures tool calls against SDK calls on one API. */
export async function runMcpBench(): Promise<void> {
  process.stdout.write('\n== MCP server ==\n');
  reportPackageSize();
  await withDatabase(async (databaseUrl) => {
    let api: Server | undefined;
    try {
      api = await startServer('apiServer.ts', {
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        DATABASE_URL: databaseUrl,
        SVC_API_KEY_SECRET: randomBytes(24).toString('hex'),
        SVC_RATE_LIMIT_PUBLIC: '1000000000',
      });
      await benchCalls(`http://127.0.0.1:${api.port}`);
    } finally {
      api?.child.kill('SIGTERM');
    }
  });
}
