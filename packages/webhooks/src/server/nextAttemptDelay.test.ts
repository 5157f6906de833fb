import fc from 'fast-check';
import {
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_DELAYS_MS,
  WEBHOOK_RETRY_JITTER,
  nextAttemptDelay,
} from './nextAttemptDelay';
import { WEBHOOK_DELIVERY_WINDOW_MS, scheduleNextAttempt } from './scheduleNextAttempt';

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;

describe('nextAttemptDelay', () => {
  it('follows the documented schedule at the middle of the jitter', () => {
    const delays = Array.from({ length: WEBHOOK_MAX_ATTEMPTS }, (_, index) =>
      nextAttemptDelay(index + 1, 0.5),
    );
    expect(delays).toEqual([
      10 * S,
      30 * S,
      2 * MIN,
      10 * MIN,
      30 * MIN,
      1 * H,
      2 * H,
      4 * H,
      8 * H,
      8 * H,
      null,
    ]);
    expect(WEBHOOK_MAX_ATTEMPTS).toBe(11);
  });

  it('spans just under a day in all', () => {
    const total = WEBHOOK_RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0);
    expect(total).toBe(23 * H + 42 * MIN + 40 * S);
    expect(total).toBeLessThan(WEBHOOK_DELIVERY_WINDOW_MS);
  });

  it('stays within ±20 % of its base and grows with the attempt (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: WEBHOOK_MAX_ATTEMPTS - 1 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, random) => {
          const base = WEBHOOK_RETRY_DELAYS_MS[attempt - 1] as number;
          const delay = nextAttemptDelay(attempt, random) as number;
          expect(delay).toBeGreaterThanOrEqual(Math.floor(base * (1 - WEBHOOK_RETRY_JITTER)));
          expect(delay).toBeLessThanOrEqual(Math.ceil(base * (1 + WEBHOOK_RETRY_JITTER)));
          const next = nextAttemptDelay(attempt + 1, random);
          if (next !== null) expect(next).toBeGreaterThanOrEqual(delay);
        },
      ),
    );
  });

  it('is pure and refuses nonsense attempts', () => {
    expect(nextAttemptDelay(3, 0)).toBe(96 * S);
    expect(nextAttemptDelay(3, 0)).toBe(nextAttemptDelay(3, 0));
    expect(() => nextAttemptDelay(0, 0.5)).toThrow(RangeError);
    expect(() => nextAttemptDelay(1.5, 0.5)).toThrow(RangeError);
    expect(nextAttemptDelay(99, 0.5)).toBeNull();
  });
});

describe('scheduleNextAttempt', () => {
  const created = new Date('2026-01-01T00:00:00Z');
  const at = (ms: number) => new Date(created.getTime() + ms);

  it('waits the scheduled delay after a failure', () => {
    expect(
      scheduleNextAttempt({ attempt: 1, eventCreatedAt: created, now: created, random: 0.5 }),
    ).toEqual(at(10 * S));
  });

  it('moves a retry past the window to its end, and gives up once it has passed', () => {
    const late = at(23 * H);
    expect(
      scheduleNextAttempt({ attempt: 9, eventCreatedAt: created, now: late, random: 0.5 }),
    ).toEqual(at(WEBHOOK_DELIVERY_WINDOW_MS));
    expect(
      scheduleNextAttempt({
        attempt: 1,
        eventCreatedAt: created,
        now: at(WEBHOOK_DELIVERY_WINDOW_MS),
        random: 0.5,
      }),
    ).toBeNull();
  });

  it('gives up after the last scheduled attempt even inside the window', () => {
    expect(
      scheduleNextAttempt({
        attempt: WEBHOOK_MAX_ATTEMPTS,
        eventCreatedAt: created,
        now: at(H),
        random: 0.5,
      }),
    ).toBeNull();
  });
});
