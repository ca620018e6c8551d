import { dueAttempts } from '../../src/modules/billing/subscriptions/subscription-sweep.service';
import { periodEnd } from '../../src/modules/billing/subscriptions/subscription-period';

describe('subscription periods (counted from the start, no drift)', () => {
  it('monthly from Jan 31: the last day of shorter months, back to the 31st after them', () => {
    const start = new Date('2027-01-31T10:00:00.000Z');
    const ends = Array.from({ length: 13 }, (_, i) =>
      periodEnd(start, 'month', 1, i + 1)
        .toISOString()
        .slice(0, 10),
    );
    expect(ends).toEqual([
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
      '2027-05-31',
      '2027-06-30',
      '2027-07-31',
      '2027-08-31',
      '2027-09-30',
      '2027-10-31',
      '2027-11-30',
      '2027-12-31',
      '2028-01-31',
      '2028-02-29',
    ]);
    expect(periodEnd(start, 'month', 1, 2).toISOString()).toBe('2027-03-31T10:00:00.000Z');
  });

  it('interval_count, weeks, days and years multiply from the start', () => {
    const start = new Date('2028-02-29T00:00:00.000Z');
    expect(periodEnd(start, 'year', 1, 1).toISOString()).toBe('2029-02-28T00:00:00.000Z');
    expect(periodEnd(start, 'year', 1, 4).toISOString()).toBe('2032-02-29T00:00:00.000Z');
    expect(periodEnd(start, 'month', 3, 2).toISOString()).toBe('2028-08-29T00:00:00.000Z');
    expect(periodEnd(start, 'week', 2, 3).toISOString()).toBe('2028-04-11T00:00:00.000Z');
    expect(periodEnd(start, 'day', 1, 1).toISOString()).toBe('2028-03-01T00:00:00.000Z');
  });
});

describe('automatic renewal attempts (at once, then 1 and 3 days after end_date)', () => {
  const endDate = new Date('2030-01-10T00:00:00.000Z');
  const at = (hours: number) => new Date(endDate.getTime() + hours * 3_600_000);

  it('one while active, however late', () => {
    expect(dueAttempts({ status: 'active', endDate }, at(-72))).toBe(1);
    expect(dueAttempts({ status: 'active', endDate }, at(100))).toBe(1);
  });

  it('past due: a second from day 1, a third from day 3, never more', () => {
    expect(dueAttempts({ status: 'past_due', endDate }, at(0))).toBe(1);
    expect(dueAttempts({ status: 'past_due', endDate }, at(23.99))).toBe(1);
    expect(dueAttempts({ status: 'past_due', endDate }, at(24))).toBe(2);
    expect(dueAttempts({ status: 'past_due', endDate }, at(71.99))).toBe(2);
    expect(dueAttempts({ status: 'past_due', endDate }, at(72))).toBe(3);
    expect(dueAttempts({ status: 'past_due', endDate }, at(24 * 30))).toBe(3);
  });
});
