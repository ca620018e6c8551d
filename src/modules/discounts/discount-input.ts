import type { DiscountStatus, DiscountType } from './discount.entity';

/** (the OpenAPI description) input aliases and the value each one is stored and shown as (README, *Choices where the contract is silent*). */
export const DISCOUNT_TYPE_ALIASES: Record<string, DiscountType> = {
  fixed: 'fixed',
  amount: 'fixed',
  percent: 'percent',
  percentage: 'percent',
  percentual: 'percent',
  '%': 'percent',
};

export const DISCOUNT_STATUS_ALIASES: Record<string, DiscountStatus> = {
  active: 'active',
  enabled: 'active',
  published: 'active',
  inactive: 'inactive',
  disabled: 'inactive',
  unpublished: 'inactive',
};

export const DISCOUNT_TYPE_INPUTS = Object.keys(DISCOUNT_TYPE_ALIASES);
export const DISCOUNT_STATUS_INPUTS = Object.keys(DISCOUNT_STATUS_ALIASES);

/** Aliases are matched ignoring case and surrounding spaces (`"Percent "` is `percent`). */
export function normaliseType(input: string): DiscountType | undefined {
  return DISCOUNT_TYPE_ALIASES[input.trim().toLowerCase()];
}

export function normaliseStatus(input: string): DiscountStatus | undefined {
  return DISCOUNT_STATUS_ALIASES[input.trim().toLowerCase()];
}

/** Largest money value `numeric(12,2)` holds. */
export const MAX_DISCOUNT_VALUE = 9_999_999_999.99;
export const MAX_CODE_LENGTH = 64;

/**
 * Letters (any script), digits, `-` and `_`. A code of digits only is refused: `{id}` in the path
 * takes the numeric id or the code (OpenAPI: `GET`/`DELETE /v1/discounts/{id}`), and a numeric code would be ambiguous with an id.
 */
const CODE_PATTERN = /^[\p{L}\p{N}_-]+$/u;

/** The lookup key of a code: uniqueness and redemption ignore case (README, *Choices where the contract is silent*). */
export function codeKey(code: string): string {
  return code.trim().toLowerCase();
}

export function isNumericId(value: string): boolean {
  return /^\d+$/.test(value);
}

export function codeProblem(code: string): string | null {
  if (!code.length) return 'code is required.';
  if (code.length > MAX_CODE_LENGTH) return `code must be at most ${MAX_CODE_LENGTH} characters.`;
  if (!CODE_PATTERN.test(code)) return 'code may contain only letters, digits, hyphens and underscores.';
  if (isNumericId(code)) return 'code must contain at least one letter, so it cannot be mistaken for an id.';
  return null;
}

/**
 * ISO 8601 date-time: a date, a time (seconds and fraction optional) and an optional offset; no
 * offset means UTC, so the result never depends on the server's time zone.
 */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|[+-]\d{2}:?\d{2})?$/;

export function parseDateTime(input: string): Date | null {
  const match = DATE_TIME.exec(input.trim());
  if (!match) return null;
  const [, year, month, day, hour, minute, second = '00', fraction = '', zone = 'Z'] = match;
  const offset = zone.toUpperCase() === 'Z' ? 'Z' : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
  const millis = fraction.padEnd(3, '0').slice(0, 3);
  const date = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}.${millis}${offset}`);
  if (Number.isNaN(date.getTime())) return null;
  // `Date` rolls 2026-02-30 over to March; a calendar date that does not exist is not a date.
  const check = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (check.getUTCMonth() !== Number(month) - 1 || check.getUTCDate() !== Number(day)) return null;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return null;
  return date;
}

export const DATE_TIME_MESSAGE = 'expires_at must be an ISO 8601 date-time (for example 2026-12-31T23:59:59Z).';
