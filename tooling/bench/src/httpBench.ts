// The HTTP part of `pnpm bench`: our API against a bare Express baseline, ratios in the same run.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import autocannon from 'autocannon';
import { createDatabase, postJournalEntry } from '@yieldrouter/ledger';
import { withDatabase } from './benchDatabase';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 4);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 32);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 6);
const GET_PATHS = (
  process.env['BENCH_PATHS'] ??
  [
    '/api/v1/svc/status',
    '/api/v1/svc/venues',
    '/api/v1/svc/home',
    // Filters and sort: served from the discovery snapshot, one document per distinct query.
    '/api/v1/svc/opportunities?asset=USDC&depositable=false&sortBy=apy30d&order=asc&limit=50',
  ].join(',')
)
  .split(',')
  .filter(Boolean);
const PLAN_PATH = '/api/v1/svc/strategies/deposit/plan';
// Well-formed EVM addresses for the bench plan (the leg is built offline; nothing is sent).
const VAULT = '0x52908400098527886E0F7030069857D2E4169EE7';
const OWNER = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';
const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const REGISTRY = '0x4200000000000000000000000000000000000042';
const tsx = path.join(__dirname, '..', 'node_modules', '.bin', 'tsx');
const BENCH_OWNER_KEY = `bench-owner-${randomBytes(12).toString('hex')}`;
const BENCH_SECRET = randomBytes(24).toString('hex');

export interface Server {
  readonly child: ChildProcess;
  readonly port: number;
}

export function startServer(script: string, env: Record<string, string>): Promise<Server> {
  return new Promise((resolve, reject) => {
    // Server logs go to /dev/null: the server still pays for writing them, while the load
    // generator in this process does not pay for reading them.
    const devNull = openSync('/dev/null', 'w');
    // BENCH_CPU_PROF_DIR: the servers write V8 CPU profiles there when they stop (SIGTERM).
    const profileDir = process.env['BENCH_CPU_PROF_DIR'];
    const flags = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
    const child = spawn(tsx, [...flags, path.join(__dirname, script)], {
      env: { ...process.env, ...env },
      stdio: ['ignore', devNull, 'pipe'],
    });
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`${script} did not start in 30 s`)), 30_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const match = /LISTENING (\d+)/.exec(buffer);
      if (match) {
        clearTimeout(timer);
        child.stderr?.removeAllListeners('data');
        child.stderr?.pipe(process.stderr);
        resolve({ child, port: Number(match[1]) });
      }
    });
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

interface Measurement {
  readonly rps: number;
  readonly p99: number;
  readonly errors: number;
}

interface Request {
  readonly url: string;
  readonly method?: 'GET' | 'POST';
  readonly body?: string;
  readonly headers?: Record<string, string>;
  /** A header set to a new UUID on every request (a fresh Idempotency-Key: every call writes). */
  readonly freshHeader?: string;
  /** Paths taken in turn, one per request (several wallets); `url` gives the first. */
  readonly paths?: readonly string[];
  /** Concurrent connections (default BENCH_CONNECTIONS). */
  readonly connections?: number;
}

const headersOf = ({ body, headers }: Request) => ({
  ...(body ? { 'content-type': 'application/json' } : {}),
  ...headers,
});

/**
 * autocannon options for `request`: fixed, or with `freshHeader` new on every request, or its
 * `paths` taken in turn.
 */
function loadOf(request: Request) {
  const { freshHeader, paths } = request;
  let next = 0;
  const setupRequest = (req: autocannon.Request) => ({
    ...req,
    ...(paths ? { path: paths[next++ % paths.length] } : {}),
    headers: { ...req.headers, ...(freshHeader ? { [freshHeader]: randomUUID() } : {}) },
  });
  return {
    url: request.url,
    method: request.method ?? 'GET',
    headers: headersOf(request),
    ...(request.body ? { body: request.body } : {}),
    ...(freshHeader || paths ? { requests: [{ setupRequest }] } : {}),
  };
}

async function measure(request: Request): Promise<Measurement> {
  const result = await autocannon({
    ...loadOf(request),
    connections: request.connections ?? CONNECTIONS,
    duration: SECONDS,
  });
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

export const median = (values: readonly number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

const summarize = (list: Measurement[]): Measurement => ({
  rps: median(list.map((m) => m.rps)),
  p99: median(list.map((m) => m.p99)),
  errors: list.reduce((total, m) => total + m.errors, 0),
});

/** Alternating rounds of ours vs the baseline; prints medians and the median per-round ratio. */
async function compare(
  title: string,
  baseline: Request,
  ours: Request,
  target: number | undefined,
): Promise<void> {
  // Warm up both, then alternate which goes first so drift on a noisy machine hits both alike.
  for (const warm of [baseline, ours]) await autocannon({ ...loadOf(warm), duration: 1 });
  const base: Measurement[] = [];
  const mine: Measurement[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const order = round % 2 === 0 ? [baseline, ours] : [ours, baseline];
    const results = new Map<Request, Measurement>();
    for (const which of order) results.set(which, await measure(which));
    const b = results.get(baseline);
    const o = results.get(ours);
    if (!b || !o) throw new Error('a round did not measure both servers');
    base.push(b);
    mine.push(o);
    ratios.push(o.rps / b.rps);
  }
  const b = summarize(base);
  const o = summarize(mine);
  process.stdout.write(
    [
      `${title}  (${ours.connections ?? CONNECTIONS} connections, ${SECONDS}s x ${ROUNDS} ` +
        'alternating rounds, medians)',
      `  baseline                   ${fmt(b)}`,
      `  Yield Router API           ${fmt(o)}`,
      `  ratio api/baseline req/s   ${median(ratios).toFixed(3)} median of per-round ratios ` +
        `(range ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}` +
        `${target === undefined ? '' : `; target >= ${target}`})`,
      `  ratio p99 api/baseline     ${(o.p99 / Math.max(b.p99, 1)).toFixed(3)}`,
      '',
    ].join('\n'),
  );
}

const bodyFileOf = (dbName: string, path: string) =>
  join(tmpdir(), `${dbName}-${path.replace(/\W+/g, '_')}.json`);

const fmt = (m: Measurement) =>
  `${m.rps.toFixed(0).padStart(7)} req/s  p99 ${String(m.p99).padStart(4)} ms  errors ${m.errors}`;

/** Deposit-plan prepares per second against a parse-and-insert Express baseline. */
async function benchPlans(apiUrl: string, planBaseline: Server): Promise<void> {
  // Deposit-plan prepares (venue lookup, adapter-built EVM legs, plan + legs stored) against
  // an Express app that only parses the body and stores it in one row.
  const body = JSON.stringify({ strategyId: 'morpho', amountMicros: '25000000', owner: OWNER });
  const probe = await fetch(`${apiUrl}${PLAN_PATH}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json' },
  });
  const plan = (await probe.json()) as { status?: string };
  if (plan.status !== 'prepared')
    throw new Error(`the bench plan is not prepared: ${JSON.stringify(plan)}`);
  await compare(
    `POST ${PLAN_PATH} (prepares/s) vs Express + one INSERT`,
    { url: `http://127.0.0.1:${planBaseline.port}/plan`, method: 'POST', body },
    { url: `${apiUrl}${PLAN_PATH}`, method: 'POST', body },
    undefined,
  );
}

/** Concurrent route writers, each request for the next of as many wallets, all on Base. */
const ROUTE_WRITERS = Number(process.env['BENCH_ROUTE_WRITERS'] ?? 16);

/**
 * Route writes per second, each with a new Idempotency-Key (stake on Base's morpho vault: the
 * plan, its legs, `external → pending_in` and the stored answer in one transaction, plus the
 * caller's HTTP record), `ROUTE_WRITERS` at a time for as many wallets on one chain (all post to
 * Base's external account), against the same parse-and-insert Express baseline at as many
 * connections.
 */
async function benchRouteWrites(apiUrl: string, planBaseline: Server): Promise<void> {
  const wallets = Array.from({ length: ROUTE_WRITERS }, (_, index) =>
    index === 0 ? OWNER : `0x${randomBytes(20).toString('hex').toUpperCase()}`,
  );
  const paths = wallets.map((wallet) => `/api/v1/wallets/${wallet}/route`);
  const body = JSON.stringify({
    amountMicros: '1000000',
    token: 'USDC',
    chain: 'base',
    stake: true,
  });
  const headers = { 'x-api-key': BENCH_OWNER_KEY };
  for (const path of paths) {
    const probe = await fetch(`${apiUrl}${path}`, {
      method: 'POST',
      body,
      headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    });
    const plan = (await probe.json()) as { status?: string };
    if (plan.status !== 'prepared') {
      throw new Error(`the bench route is not prepared: ${JSON.stringify(plan)}`);
    }
  }
  const connections = ROUTE_WRITERS;
  await compare(
    `POST /api/v1/wallets/{address}/route with Idempotency-Key (writes/s), ${ROUTE_WRITERS} wallets on Base, vs Express + one INSERT`,
    { url: `http://127.0.0.1:${planBaseline.port}/plan`, method: 'POST', body, connections },
    {
      url: `${apiUrl}${paths[0] as string}`,
      paths,
      method: 'POST',
      body,
      headers,
      freshHeader: 'idempotency-key',
      connections,
    },
    0.5,
  );
}

/**
 * GET /wallets/{address}/position (an owner key; the wallet holds liquid and staked balances)
 * against a bare one-route Express app serving the same document.
 */
async function benchPosition(databaseUrl: string, apiUrl: string, servers: Server[]) {
  const path = `/api/v1/wallets/${OWNER}/position`;
  const headers = { 'x-api-key': BENCH_OWNER_KEY };
  // The ledger keeps the wallet under its canonical (checksummed) address.
  const empty = (await (await fetch(`${apiUrl}${path}`, { headers })).json()) as { wallet: string };
  const wallet = empty.wallet;
  const db = await createDatabase({ databaseUrl, poolSize: 2 });
  try {
    await db.transaction((tx) =>
      postJournalEntry(tx, {
        kind: 'bench.seed',
        postings: [
          { account: { system: 'external', chain: 'base' }, amountMicros: -30_000_000n },
          { account: { wallet, chain: 'base', bucket: 'liquid' }, amountMicros: 20_000_000n },
          {
            account: { wallet, chain: 'base', bucket: `staked:svcop${'0'.repeat(24)}` },
            amountMicros: 10_000_000n,
          },
        ],
      }),
    );
  } finally {
    await db.close();
  }
  const response = await fetch(`${apiUrl}${path}`, { headers });
  const text = await response.text();
  if (!response.ok || !text.includes('"liquidMicros":"20000000"')) {
    throw new Error(`GET ${path} answered ${response.status}: ${text}`);
  }
  const bodyFile = bodyFileOf(BENCH_OWNER_KEY, path);
  writeFileSync(bodyFile, text);
  const baseline = await startServer('baselineServer.ts', {
    BENCH_BODY_FILE: bodyFile,
    BENCH_PATH: path,
  });
  servers.push(baseline);
  try {
    await compare(
      `GET /api/v1/wallets/{address}/position (owner key) vs bare Express 5 one-route`,
      { url: `http://127.0.0.1:${baseline.port}${path}`, headers },
      { url: `${apiUrl}${path}`, headers },
      0.8,
    );
  } finally {
    baseline.child.kill('SIGTERM');
    rmSync(bodyFile, { force: true });
  }
}

/**
 * One client flooding `GET /svc/status` past the public limit (a second API process, limit 100
 * an hour: after the first 100 every answer is a 429) against the same route served by the
 * API with the limits lifted: refusing must be the cheapest answer the service gives.
 */
async function benchRefusals(databaseUrl: string, apiUrl: string, servers: Server[]) {
  const path = '/api/v1/svc/status';
  const limited = await startServer('apiServer.ts', {
    ...apiEnv(databaseUrl),
    SVC_RATE_LIMIT_PUBLIC: '100',
    SVC_RATE_LIMIT_WINDOW_SECONDS: '3600',
  });
  servers.push(limited);
  try {
    const url = `http://127.0.0.1:${limited.port}${path}`;
    let status = 200;
    for (let i = 0; i < 101 && status !== 429; i += 1) status = (await fetch(url)).status;
    if (status !== 429) throw new Error(`the limited API did not refuse after 100 requests`);
    await compare(
      `GET ${path}: 429s/s (flood past the limit) vs served req/s (limit lifted)`,
      { url: `${apiUrl}${path}` },
      { url },
      3,
    );
  } finally {
    limited.child.kill('SIGTERM');
  }
}

const apiEnv = (databaseUrl: string): Record<string, string> => ({
  NODE_ENV: 'production',
  LOG_LEVEL: process.env['BENCH_LOG_LEVEL'] ?? 'info',
  DATABASE_URL: databaseUrl,
  SVC_API_KEY_SECRET: BENCH_SECRET,
  SVC_RATE_LIMIT_PUBLIC: '1000000000',
  SVC_RATE_LIMIT_KEYED: '1000000000',
  SVC_VENUE_IDS: JSON.stringify({ morpho: { vault: VAULT } }),
  // Ids of our own for the route writes (legs are built offline; nothing is sent).
  SVC_BASE_USDC_ADDRESS: USDC,
  SVC_BASE_REGISTRY_ADDRESS: REGISTRY,
  SVC_API_KEYS: JSON.stringify([{ key: BENCH_OWNER_KEY, role: 'owner', wallets: ['*'] }]),
});

/** The API against its baselines on one database: GET routes, position, plan prepares. */
async function benchAll(databaseUrl: string, runId: string, servers: Server[]): Promise<void> {
  const api = await startServer('apiServer.ts', apiEnv(databaseUrl));
  servers.push(api);
  const apiUrl = `http://127.0.0.1:${api.port}`;
  // GET routes against a bare one-route Express app serving the very same document.
  for (const path of GET_PATHS) {
    const bodyFile = bodyFileOf(runId, path);
    const response = await fetch(`${apiUrl}${path}`);
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
    writeFileSync(bodyFile, await response.text());
    const baseline = await startServer('baselineServer.ts', {
      BENCH_BODY_FILE: bodyFile,
      BENCH_PATH: path,
    });
    servers.push(baseline);
    await compare(
      `GET ${path} vs bare Express 5 one-route`,
      { url: `http://127.0.0.1:${baseline.port}${path}` },
      { url: `${apiUrl}${path}` },
      /\/svc\/(status|venues)$/.test(path) ? 0.9 : 0.85,
    );
    baseline.child.kill('SIGTERM');
  }
  if (process.env['BENCH_POSITION'] !== '0') {
    await benchPosition(databaseUrl, apiUrl, servers);
  }
  if (process.env['BENCH_REFUSALS'] !== '0') {
    await benchRefusals(databaseUrl, apiUrl, servers);
  }
  const plans = process.env['BENCH_PLAN'] !== '0';
  const routes = process.env['BENCH_ROUTE'] !== '0';
  if (!plans && !routes) return;
  const planBaseline = await startServer('planBaselineServer.ts', { DATABASE_URL: databaseUrl });
  servers.push(planBaseline);
  if (plans) await benchPlans(apiUrl, planBaseline);
  if (routes) await benchRouteWrites(apiUrl, planBaseline);
}

/** Benchmarks the GET hot paths and plan prepares against bare Express baselines; needs Postgres. */
export async function runHttpBench(): Promise<void> {
  await withDatabase(async (databaseUrl) => {
    const runId = new URL(databaseUrl).pathname.slice(1);
    const servers: Server[] = [];
    try {
      await benchAll(databaseUrl, runId, servers);
    } finally {
      for (const server of servers) server.child.kill('SIGTERM');
      for (const path of GET_PATHS) rmSync(bodyFileOf(runId, path), { force: true });
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  });
}
