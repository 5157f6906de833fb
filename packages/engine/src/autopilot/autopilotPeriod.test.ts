import { autopilotPeriod } from './autopilotPeriod';

describe('autopilotPeriod (UTC)', () => {
  it('a month runs from its first day to the next month, December into January', () => {
    const period = autopilotPeriod('monthly', new Date('2026-12-31T23:59:59.999Z'));
    expect(period.key).toBe('monthly:2026-12');
    expect(period.startsAt.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(period.nextStartsAt.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(autopilotPeriod('monthly', period.nextStartsAt).key).toBe('monthly:2027-01');
  });

  it('a week starts on Monday (a Sunday belongs to the week before)', () => {
    const sunday = autopilotPeriod('weekly', new Date('2026-11-29T12:00:00Z'));
    expect(sunday.key).toBe('weekly:2026-11-23');
    expect(sunday.nextStartsAt.toISOString()).toBe('2026-11-30T00:00:00.000Z');
    expect(autopilotPeriod('weekly', new Date('2026-11-30T00:00:00Z')).key).toBe(
      'weekly:2026-11-30',
    );
  });

  it('a day is its date', () => {
    const period = autopilotPeriod('daily', new Date('2026-11-27T08:00:00Z'));
    expect(period).toEqual({
      key: 'daily:2026-11-27',
      startsAt: new Date('2026-11-27T00:00:00Z'),
      nextStartsAt: new Date('2026-11-28T00:00:00Z'),
    });
  });
});
