// The MCP part of `pnpm bench`: discovery tool calls per second over stdio (the
// @yieldrouter/mcp command) against the same GET through the SDK, in the same run, and the size
// of the MCP package.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createClient } from '@yieldrouter/sdk';
import { withDatabase } from './benchDatabase';
import type { Server } from './httpBench';
import { median, startServer } from './httpBench';
import { processTreeCpuMicros } from './processCpu';

const CALLS = Number(process.env['BENCH_MCP_CALLS'] ?? 150);
const ROUNDS = Number(process.env['BENCH_MCP_ROUNDS'] ?? 12);
const TARGET = 0.8;
const mcpRoot = dirname(require.resolve('@yieldrouter/mcp/package.json'));

/** CPU microseconds used so far by the MCP server and the API; undefined without /proc. */
interface CpuReading {
  readonly server: number | undefined;
  readonly api: number | undefined;
}

interface Spent {
  client: number;
  server: number;
  api: number;
}

/**
 * Calls per second of `call`, run `CALLS` times one after another, and the CPU the processes
 * spent meanwhile (added to `spent`): only this side runs, so all of it is this side's.
 */
async function callsPerSecond(
  call: () => Promise<unknown>,
  readCpu: () => CpuReading,
  spent: Spent,
): Promise<number> {
  const before = readCpu();
  const clientBefore = process.cpuUsage();
  const started = performance.now();
  for (let index = 0; index < CALLS; index += 1) await call();
  const rate = CALLS / ((performance.now() - started) / 1000);
  const client = process.cpuUsage(clientBefore);
  const after = readCpu();
  spent.client += client.user + client.system;
  spent.server += (after.server ?? 0) - (before.server ?? 0);
  spent.api += (after.api ?? 0) - (before.api ?? 0);
  return rate;
}

/**
 * CPU per call of each side, over every process: this one (the SDK, or the MCP client), the MCP
 * server, the API. Wall time on this shared machine moves with everyone else's load; the ratio
 * of CPU per call moves less, and says which process a side's time goes to.
 */
function cpuLine(sdk: Spent, mcp: Spent, measured: boolean): string[] {
  if (!measured) return [];
  const calls = ROUNDS * CALLS;
  const us = (micros: number) => `${(micros / calls).toFixed(0)} µs`;
  const total = (spent: Spent) => spent.client + spent.server + spent.api;
  return [
    `  CPU per call: sdk ${us(total(sdk))} (client ${us(sdk.client)}, API ${us(sdk.api)}); ` +
      `mcp ${us(total(mcp))} (client ${us(mcp.client)}, MCP server ${us(mcp.server)}, ` +
      `API ${us(mcp.api)}); ratio sdk/mcp ${(total(sdk) / total(mcp)).toFixed(3)}`,
  ];
}

/** Alternating rounds of `viaSdk` and `viaMcp`; prints rates, the median ratio and CPU per call. */
async function compareCalls(
  title: string,
  viaSdk: () => Promise<unknown>,
  viaMcp: () => Promise<unknown>,
  readCpu: () => CpuReading,
): Promise<void> {
  // Warm both paths (JIT, connections, the discovery snapshot).
  for (let index = 0; index < 50; index += 1) await Promise.all([viaSdk(), viaMcp()]);
  const sdkRates: number[] = [];
  const mcpRates: number[] = [];
  const ratios: number[] = [];
  const sdkCpu: Spent = { client: 0, server: 0, api: 0 };
  const mcpCpu: Spent = { client: 0, server: 0, api: 0 };
  // Short rounds, the order swapped every round: this shared machine's speed drifts from
  // second to second, and each ratio compares two runs a second apart. Finer interleaving
  // (blocks of 10 calls, or call by call) narrowed the spread but moved the median: each
  // switch hands one side's leftover work, or caches the other side has cooled, to the next
  // call (docs/benchmarks/2026-11-28.md, note 4).
  for (let round = 0; round < ROUNDS; round += 1) {
    const first = round % 2 === 0 ? viaSdk : viaMcp;
    const a = await callsPerSecond(first, readCpu, first === viaSdk ? sdkCpu : mcpCpu);
    const second = first === viaSdk ? viaMcp : viaSdk;
    const b = await callsPerSecond(second, readCpu, second === viaSdk ? sdkCpu : mcpCpu);
    const [s, m] = first === viaSdk ? [a, b] : [b, a];
    sdkRates.push(s);
    mcpRates.push(m);
    ratios.push(m / s);
  }
  const cpuMeasured = readCpu().api !== undefined;
  process.stdout.write(
    [
      title,
      `  (${ROUNDS} rounds of ${CALLS} sequential calls)`,
      `  sdk  ${median(sdkRates).toFixed(0).padStart(6)} calls/s`,
      `  mcp  ${median(mcpRates).toFixed(0).padStart(6)} calls/s`,
      `  ratio mcp/sdk calls/s ${median(ratios).toFixed(3)} median of per-round ratios ` +
        `(range ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}; ` +
        `target >= ${TARGET})`,
      ...cpuLine(sdkCpu, mcpCpu, cpuMeasured),
      '',
    ].join('\n'),
  );
}

/** A tool call's result, or a thrown error naming the tool. */
async function called(mcp: Client): Promise<void> {
  const result = await mcp.callTool({ name: 'listOpportunities', arguments: {} });
  if (result.isError) throw new Error(`listOpportunities failed: ${JSON.stringify(result)}`);
}

async function benchCalls(api: Server, apiUrl: string): Promise<void> {
  const sdk = createClient({ baseUrl: apiUrl });
  const viaSdk = () => sdk.listOpportunities();
  const stdio = new Client({ name: 'yieldrouter-bench', version: '0.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(mcpRoot, 'bin/yieldrouter-mcp.cjs')],
    env: { PATH: process.env['PATH'] ?? '', SVC_API_URL: apiUrl },
  });
  await stdio.connect(transport);
  try {
    // As a host does before offering the tools: the SDK client then checks every structured
    // result against the tool's output schema.
    await stdio.listTools();
    await compareCalls(
      'listOpportunities over stdio MCP vs GET /api/v1/svc/opportunities through the SDK',
      viaSdk,
      () => called(stdio),
      () => ({
        server: processTreeCpuMicros(transport.pid ?? 0),
        api: processTreeCpuMicros(api.child.pid ?? 0),
      }),
    );
  } finally {
    await stdio.close();
  }
  // The MCP server inside the API (/mcp, Streamable HTTP): each tool call runs the route in
  // process; the server's CPU is the API's.
  const http = new Client({ name: 'yieldrouter-bench', version: '0.0.0' });
  await http.connect(new StreamableHTTPClientTransport(new URL(`${apiUrl}/mcp`)));
  try {
    await http.listTools();
    await compareCalls(
      "listOpportunities over the API's /mcp vs GET /api/v1/svc/opportunities through the SDK",
      viaSdk,
      () => called(http),
      () => ({ server: 0, api: processTreeCpuMicros(api.child.pid ?? 0) }),
    );
  } finally {
    await http.close();
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
      await benchCalls(api, `http://127.0.0.1:${api.port}`);
    } finally {
      api?.child.kill('SIGTERM');
    }
  });
}
