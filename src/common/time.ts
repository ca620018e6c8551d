/**
 * Contract timestamp: `YYYY-MM-DDTHH:MM:SS.ffffffZ` (the OpenAPI description). JavaScript dates carry
 * milliseconds, so the last three digits are zero.
 */
export function formatTimestamp(date: Date): string;
export function formatTimestamp(date: Date | null | undefined): string | null;
export function formatTimestamp(date: Date | null | undefined): string | null {
  if (!date) return null;
  // toISOString always ends in `.sssZ`.
  return `${date.toISOString().slice(0, -1)}000Z`;
}

/** A replaceable clock, so tests can move time (OAuth code expiry, coupon expiry). */
export interface Clock {
  now(): Date;
}

export const CLOCK = Symbol('CLOCK');

export const systemClock: Clock = { now: () => new Date() };

/**
 * A clock set to an instant of the operator's choosing (`subscriptions:sweep --at`): it reads
 * `from` until {@link start}, then moves on from there at the system clock's pace.
 */
export class ClockFrom implements Clock {
  private offsetMs: number | null = null;

  constructor(private readonly from: Date) {}

  start(): void {
    this.offsetMs ??= this.from.getTime() - Date.now();
  }

  now(): Date {
    return new Date(this.offsetMs === null ? this.from.getTime() : Date.now() + this.offsetMs);
  }
}
