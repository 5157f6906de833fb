import type { AutopilotCadence } from '@yieldrouter/schemas';

/** One cadence period: its key (stored with the tick), its start and the next period's start. */
export interface AutopilotPeriod {
  readonly key: string;
  readonly startsAt: Date;
  readonly nextStartsAt: Date;
}

const DAY_MS = 86_400_000;
const isoDate = (at: Date) => at.toISOString().slice(0, 10);

/**
 * The period `now` falls in, in UTC: a calendar month (`monthly:2026-11`), an ISO week from
 * Monday (`weekly:2026-11-23`, the Monday's date) or a day (`daily:2026-11-27`).
 *
 * @example
 * autopilotPeriod('monthly', new Date('2026-11-27T08:00:00Z')).key // 'monthly:2026-11'
 */
export function autopilotPeriod(cadence: AutopilotCadence, now: Date): AutopilotPeriod {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const day = Date.UTC(year, month, now.getUTCDate());
  if (cadence === 'monthly') {
    const startsAt = new Date(Date.UTC(year, month, 1));
    return {
      key: `monthly:${isoDate(startsAt).slice(0, 7)}`,
      startsAt,
      nextStartsAt: new Date(Date.UTC(year, month + 1, 1)),
    };
  }
  if (cadence === 'weekly') {
    // getUTCDay: Sunday 0 … Saturday 6; ISO weeks start on Monday.
    const monday = new Date(day - ((now.getUTCDay() + 6) % 7) * DAY_MS);
    return {
      key: `weekly:${isoDate(monday)}`,
      startsAt: monday,
      nextStartsAt: new Date(monday.getTime() + 7 * DAY_MS),
    };
  }
  const startsAt = new Date(day);
  return {
    key: `daily:${isoDate(startsAt)}`,
    startsAt,
    nextStartsAt: new Date(day + DAY_MS),
  };
}
