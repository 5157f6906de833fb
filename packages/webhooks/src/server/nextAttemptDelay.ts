/**
 * Base wait after each failed attempt, in ms: after attempt 1 → 10 s, 2 → 30 s, 3 → 2 min,
 * 4 → 10 min, 5 → 30 min, 6 → 1 h, 7 → 2 h, 8 → 4 h, 9 → 8 h, 10 → 8 h. About 23 h 43 min in
 * all; after the 11th attempt fails the delivery is final (`failed`).
 */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [
  10_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000,
  28_800_000,
];

/** Attempts a delivery gets at most: the first plus one per scheduled retry. */
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;

/** Each wait is its base ± this fraction, so receivers coming back are not hit in lockstep. */
export const WEBHOOK_RETRY_JITTER = 0.2;

/**
 * How long to wait after failed attempt number `attempt` (1-based) before the next one, or null
 * when the schedule is exhausted. `random` in [0, 1) picks the jitter: 0 → 80 % of the base,
 * 0.5 → the base, towards 1 → 120 %. Pure: pass `Math.random()` in production.
 *
 * @example
 * nextAttemptDelay(1, 0.5); // 10_000
 * nextAttemptDelay(3, 0); // 96_000
 * nextAttemptDelay(WEBHOOK_MAX_ATTEMPTS, 0.5); // null: give up
 */
export function nextAttemptDelay(attempt: number, random: number): number | null {
  if (!Number.isInteger(attempt) || attempt < 1) {
    throw new RangeError('webhooks: attempt must be a whole number from 1');
  }
  const base = WEBHOOK_RETRY_DELAYS_MS[attempt - 1];
  if (base === undefined) return null;
  const unit = Math.min(Math.max(random, 0), 1);
  return Math.round(base * (1 - WEBHOOK_RETRY_JITTER + 2 * WEBHOOK_RETRY_JITTER * unit));
}
