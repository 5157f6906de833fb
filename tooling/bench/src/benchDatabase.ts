// Shared by the benchmark parts: a throwaway database per run, and a simple task pool.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';

const ADMIN_URL =
  process.env['TEST_DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

/** Runs `work` against a new, uniquely named database (URL given), dropped afterwards. */
export async function withDatabase<T>(work: (url: string) => Promise<T>): Promise<T> {
  const name = `svc_bench_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  try {
    return await work(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

/** Runs `tasks` with `concurrency` workers; returns the elapsed seconds. */
export async function pool(
  tasks: (() => Promise<unknown>)[],
  concurrency: number,
): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < tasks.length) {
        const task = tasks[next];
        next += 1;
        await task?.();
      }
    }),
  );
  return (performance.now() - started) / 1000;
}
