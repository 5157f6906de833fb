import { computeYieldSkim } from './computeYieldSkim';
import { FeeError } from './errors';
import { MAX_MICROS, assertMicros } from './feeSchedule';

/** Upper bound on an APY fed to a projection: 1,000,000 bps (10,000 %). */
export const MAX_PROJECTED_APY_BPS = 1_000_000;
const DAYS_PER_YEAR = 365n;

export interface ProjectYieldParameters {
  readonly amountMicros: bigint;
  /** Annual yield in bps (0 … 1,000,000). */
  readonly apyBps: number;
  /** Horizon in days (1 … 3650). */
  readonly days: number;
  /** Defaults to the published skim (500 bps). */
  readonly skimBps?: number;
}

export interface ProjectYieldReturnType {
  readonly grossYieldMicros: bigint;
  readonly skimMicros: bigint;
  readonly netMicros: bigint;
}

/**
 * Projected yield on `amountMicros` over `days` at `apyBps`: simple pro rata of the annual rate
 * (`floor(amount × apy × days / (10000 × 365))`, no compounding inside the horizon), then the
 * yield skim through `computeYieldSkim`, so `skim + net === gross`. A projection, not a promise:
 * APY moves.
 *
 * @example
 * projectYield({ amountMicros: 1_000_000_000n, apyBps: 500, days: 365 })
 * // { grossYieldMicros: 50_000_000n, skimMicros: 2_500_000n, netMicros: 47_500_000n }
 */
export function projectYield({
  amountMicros,
  apyBps,
  days,
  skimBps,
}: ProjectYieldParameters): ProjectYieldReturnType {
  assertMicros(amountMicros, 'amountMicros');
  if (!Number.isInteger(apyBps) || apyBps < 0 || apyBps > MAX_PROJECTED_APY_BPS) {
    throw new FeeError(`apyBps must be an integer in 0..${MAX_PROJECTED_APY_BPS}`, {
      field: 'apyBps',
    });
  }
  if (!Number.isInteger(days) || days < 1 || days > 3650) {
    throw new FeeError('days must be an integer in 1..3650', { field: 'days' });
  }
  const grossYieldMicros =
    (amountMicros * BigInt(apyBps) * BigInt(days)) / (10_000n * DAYS_PER_YEAR);
  if (grossYieldMicros > MAX_MICROS) {
    throw new FeeError('the projected yield exceeds 2^63 - 1 micros', { field: 'amountMicros' });
  }
  return computeYieldSkim({ grossYieldMicros, ...(skimBps === undefined ? {} : { skimBps }) });
}
