// Knobs of the chain bench, read once from the environment.

/** How long, how often and how wide each chain measurement runs. */
export interface ChainBenchSettings {
  /** Seconds each side (ours, baseline) of one comparison runs in total. */
  readonly seconds: number;
  /** The window is split into this many alternating rounds (drift hits both sides alike). */
  readonly rounds: number;
  /** In-flight reads for the concurrent balance measurement. */
  readonly concurrency: number;
  /** Seconds each side runs before measuring (JIT, connection pools). */
  readonly warmupSeconds: number;
}

function positiveNumber(name: string, fallback: number, integer: boolean): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new Error(`${name} must be a positive ${integer ? 'integer' : 'number'} (got "${raw}")`);
  }
  return value;
}

/** BENCH_CHAIN_SECONDS (default 2), BENCH_CHAIN_ROUNDS (2), BENCH_CHAIN_CONCURRENCY (8). */
export function chainBenchSettings(): ChainBenchSettings {
  const seconds = positiveNumber('BENCH_CHAIN_SECONDS', 2, false);
  return {
    seconds,
    rounds: positiveNumber('BENCH_CHAIN_ROUNDS', 2, true),
    concurrency: positiveNumber('BENCH_CHAIN_CONCURRENCY', 8, true),
    warmupSeconds: Math.min(0.25, seconds / 4),
  };
}
