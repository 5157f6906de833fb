// The HTTP part of `pnpm bench`: our API against a bare Express baseline, ratios in the same run.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import autocannon from 'autocannon';
import { Client } from 'pg';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 4);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 32);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 6);
const ADMIN_URL =
  process.env['TEST_DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const tsx = path.join(__dirname, '..', 'node_modules', '.bin', 'tsx');

interface Server {
  readonly child: ChildProcess;
  readonly port: number;
}

function startServer(script: string, env: Record<string, string>): Promise<Server> {
  return new Promise((resolve, reject) => {
    // Server logs go to /dev/null: the server still pays for writing them, while the load
    // generator in this process does not pay for reading them.
    const devNull = openSync('/dev/null', 'w');
    const child = spawn(tsx, [path.join(__dirname, script)], {
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

async function measure(url: string): Promise<Measurement> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

const fmt = (m: Measurement) =>
  `${m.rps.toFixed(0).padStart(7)} req/s  p99 ${String(m.p99).padStart(4)} ms  errors ${m.errors}`;

/** Benchmarks GET /api/v1/svc/status against a bare Express server; needs Postgres. */
export async function runHttpBench(): Promise<void> {
  const dbName = `svc_bench_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  const servers: Server[] = [];
  try {
    const api = await startServer('apiServer.ts', {
      NODE_ENV: 'production',
      LOG_LEVEL: process.env['BENCH_LOG_LEVEL'] ?? 'info',
      DATABASE_URL: url.toString(),
      SVC_API_KEY_SECRET: randomBytes(24).toString('hex'),
      SVC_RATE_LIMIT_PUBLIC: '1000000000',
    });
    servers.push(api);
    const path = '/api/v1/svc/status';
    const bodyFile = join(tmpdir(), `${dbName}-status.json`);
    writeFileSync(bodyFile, await (await fetch(`http://127.0.0.1:${api.port}${path}`)).text());
    const baseline = await startServer('baselineServer.ts', { BENCH_BODY_FILE: bodyFile });
    servers.push(baseline);
    // Warm up both, then alternate rounds so drift on a noisy machine hits both alike.
    await autocannon({ url: `http://127.0.0.1:${baseline.port}${path}`, duration: 1 });
    await autocannon({ url: `http://127.0.0.1:${api.port}${path}`, duration: 1 });
    const base: Measurement[] = [];
    const ours: Measurement[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      // Alternate which goes first so drift on a noisy machine hits both alike.
      const order = round % 2 === 0 ? ['base', 'ours'] : ['ours', 'base'];
      let b: Measurement | undefined;
      let o: Measurement | undefined;
      for (const which of order) {
        if (which === 'base') b = await measure(`http://127.0.0.1:${baseline.port}${path}`);
        else o = await measure(`http://127.0.0.1:${api.port}${path}`);
      }
      if (!b || !o) throw new Error('a round did not measure both servers');
      base.push(b);
      ours.push(o);
      ratios.push(o.rps / b.rps);
    }
    const median = (values: number[]) => {
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
    const b = summarize(base);
    const o = summarize(ours);
    process.stdout.write(
      [
        `GET ${path}  (${CONNECTIONS} connections, ${SECONDS}s x ${ROUNDS} alternating rounds, medians)`,
        `  bare Express 5 one-route   ${fmt(b)}`,
        `  Yield Router API           ${fmt(o)}`,
        `  ratio api/baseline req/s   ${median(ratios).toFixed(3)} median of per-round ratios ` +
          `(range ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}; target >= 0.85)`,
        `  ratio p99 api/baseline     ${(o.p99 / Math.max(b.p99, 1)).toFixed(3)}`,
        '',
      ].join('\n'),
    );
  } finally {
    for (const server of servers) server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }
}
