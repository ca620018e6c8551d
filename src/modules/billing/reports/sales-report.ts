import type { PlanInterval } from '../../catalog';
import { Cents } from '../../../common/money';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The longest range a report covers, in days (both ends included). */
export const MAX_REPORT_DAYS = 366;
/** The range of a report without `from` and `to`: the last 30 UTC days, today included. */
export const DEFAULT_REPORT_DAYS = 30;

/** `YYYY-MM-DD` of an instant, in UTC. */
export function utcDate(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/** Midnight UTC that starts the day `YYYY-MM-DD`. */
export function startOfUtcDay(date: string): Date {
  return new Date(`${date}T00:00:00.000Z`);
}

export function addUtcDays(date: string, days: number): string {
  return utcDate(new Date(startOfUtcDay(date).getTime() + days * DAY_MS));
}

/** Days from `from` to `to` (`to` − `from`, in whole UTC days), counted on the calendar, not on the text. */
export function daysFrom(from: string, to: string): number {
  return Math.round((startOfUtcDay(to).getTime() - startOfUtcDay(from).getTime()) / DAY_MS);
}

/** Every `YYYY-MM-DD` from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
  const start = startOfUtcDay(from).getTime();
  return Array.from({ length: Math.max(0, daysFrom(from, to) + 1) }, (_, i) => utcDate(new Date(start + i * DAY_MS)));
}

/** The length of one renewal interval in days, a month counting as 30 and a year as 12 months. */
const INTERVAL_DAYS: Record<PlanInterval, number> = { day: 1, week: 7, month: 30, year: 360 };

/**
 * Monthly recurring revenue: each subscription's plan price normalised to 30 days (a monthly plan
 * counts its price, a yearly one a twelfth, a weekly one 30/7), summed exactly and rounded half up
 * to the cent once, at the end.
 */
export function monthlyRecurringRevenue(
  subscriptions: Array<{ price: Cents; interval: PlanInterval; intervalCount: number }>,
): Cents {
  // Σ price × 30 / days over a common denominator, in integers (BigInt: no float rounding on the way).
  let numerator = 0n;
  let denominator = 1n;
  for (const { price, interval, intervalCount } of subscriptions) {
    const days = BigInt(INTERVAL_DAYS[interval] * Math.max(1, intervalCount));
    numerator = numerator * days + BigInt(price) * 30n * denominator;
    denominator *= days;
    const divisor = gcd(numerator < 0n ? -numerator : numerator, denominator);
    if (divisor > 1n) {
      numerator /= divisor;
      denominator /= divisor;
    }
  }
  return Number((2n * numerator + denominator) / (2n * denominator));
}

function gcd(a: bigint, b: bigint): bigint {
  while (b) [a, b] = [b, a % b];
  return a;
}
