import type { PlanInterval } from '../../catalog';

/**
 * `start` plus `count` intervals, in UTC calendar arithmetic (README, *Taking payments*): a month from Jan 31 is
 * the last day of February, a year from Feb 29 is Feb 28. Days and weeks are whole calendar days.
 */
export function addInterval(start: Date, interval: PlanInterval, count = 1): Date {
  switch (interval) {
    case 'day':
      return addDays(start, count);
    case 'week':
      return addDays(start, 7 * count);
    case 'month':
      return addMonths(start, count);
    case 'year':
      return addMonths(start, 12 * count);
  }
}

function addDays(start: Date, days: number): Date {
  const end = new Date(start.getTime());
  end.setUTCDate(end.getUTCDate() + days);
  return end;
}

function addMonths(start: Date, months: number): Date {
  const monthIndex = start.getUTCFullYear() * 12 + start.getUTCMonth() + months;
  const year = Math.floor(monthIndex / 12);
  const month = monthIndex - year * 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const end = new Date(start.getTime());
  // Day first to 1, so setting the month never overflows into the next one.
  end.setUTCDate(1);
  end.setUTCFullYear(year, month, Math.min(start.getUTCDate(), lastDay));
  return end;
}

/**
 * The end of the subscription's `periods`-th period: counted from its start every time, so a
 * month from Jan 31 gives Feb 28/29, Mar 31, Apr 30 … (never drifting to the 28th).
 */
export function periodEnd(start: Date, interval: PlanInterval, intervalCount: number, periods: number): Date {
  return addInterval(start, interval, intervalCount * periods);
}
