import { nextAttemptDelay } from './nextAttemptDelay';

/** Retries stop this long after the event was created (a final attempt may land at the end). */
export const WEBHOOK_DELIVERY_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface ScheduleNextAttemptParameters {
  /** The attempt that just failed (1-based). */
  readonly attempt: number;
  /** When the event was written; the retry window counts from here. */
  readonly eventCreatedAt: Date;
  readonly now: Date;
  /** In [0, 1): the jitter (see {@link nextAttemptDelay}). */
  readonly random: number;
}

/**
 * When to try a failed delivery again, or null when it is final (`failed`): the schedule of
 * {@link nextAttemptDelay}, cut at {@link WEBHOOK_DELIVERY_WINDOW_MS} after the event was
 * created. A retry that would land past the window is moved to its end, and nothing is
 * retried once the window has passed. A delivery that waited behind earlier ones of its
 * subscription (deliveries are sent in order) therefore gets what is left of the window; after
 * a long outage the backlog drains with one attempt per event instead of a day each.
 *
 * @example
 * scheduleNextAttempt({ attempt: 1, eventCreatedAt: t0, now: t0, random: 0.5 }); // t0 + 10 s
 */
export function scheduleNextAttempt({
  attempt,
  eventCreatedAt,
  now,
  random,
}: ScheduleNextAttemptParameters): Date | null {
  const delay = nextAttemptDelay(attempt, random);
  const deadline = eventCreatedAt.getTime() + WEBHOOK_DELIVERY_WINDOW_MS;
  if (delay === null || now.getTime() >= deadline) return null;
  return new Date(Math.min(now.getTime() + delay, deadline));
}
