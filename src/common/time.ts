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
