import { ValueTransformer } from 'typeorm';

/**
 * Money is handled as integer cents in code and stored as `numeric(12,2)`: exact, never a float
 * (the OpenAPI description). Decimal strings from PostgreSQL and from JSON numbers are converted without
 * passing through floating-point arithmetic.
 */
export type Cents = number;

/** The largest amount a `numeric(12,2)` column holds: 9999999999.99. */
export const MAX_CENTS: Cents = 999_999_999_999;

const DECIMAL = /^(-?)(\d+)(?:\.(\d{1,2})\d*)?$/;

/** Parses a decimal with at most two significant decimals ("12.5", 12.5, "12.50") into cents. */
export function toCents(value: string | number): Cents {
  if (typeof value === 'number') {
    const cents = exactCents(value);
    if (cents !== undefined) return cents;
  }
  const text = typeof value === 'number' ? numberToPlainString(value) : value.trim();
  const match = DECIMAL.exec(text);
  if (!match) throw new RangeError(`Not a decimal amount: ${text}`);
  const [, sign, whole, fraction = ''] = match;
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return sign ? -cents : cents;
}

/** Cents to the `numeric` string form ("1234.50"). */
export function centsToDecimal(cents: Cents): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * Cents to the JSON number of the contract (at most two decimals). The division is exact in the
 * sense that matters: IEEE division and decimal parsing both round to the nearest double, so
 * `cents / 100` is the number `Number(centsToDecimal(cents))` parses, without building the string.
 */
export function centsToNumber(cents: Cents): number {
  return cents / 100;
}

/** Whether a number has at most two decimals, checked on its shortest decimal representation. */
export function hasAtMostTwoDecimals(value: number): boolean {
  if (exactCents(value) !== undefined) return true;
  return Number.isFinite(value) && /^-?\d+(\.\d{1,2})?$/.test(numberToPlainString(value));
}

/**
 * The cents of a number whose shortest decimal form has at most two decimals, found without
 * formatting it: below 1e13, `v` is such a number exactly when `round(v × 100) / 100` gives `v`
 * back (the product is within 0.11 of the integer k, and k / 100 rounds to the nearest double as
 * parsing "k/100" does). Undefined otherwise, or when too large to tell this way.
 */
function exactCents(value: number): Cents | undefined {
  if (!(Math.abs(value) < 1e13)) return undefined;
  const cents = Math.round(value * 100);
  return cents / 100 === value ? cents + 0 : undefined;
}

/** `amount × percent / 100`, rounded half up to the cent; percent may carry two decimals. */
export function percentOf(amount: Cents, percent: string | number): Cents {
  const basisPoints = toCents(percent); // 12.5% → 1250
  return Math.floor((amount * basisPoints + 5000) / 10000);
}

// Built once: `toLocaleString` with options builds a formatter on every call, which showed as 5 %
// of the CPU of order creation (amounts are validated and converted on every request).
const PLAIN = new Intl.NumberFormat('en-US', { useGrouping: false, maximumFractionDigits: 20 });

function numberToPlainString(value: number): string {
  // Avoid exponent notation for very small or large numbers.
  return Math.abs(value) < 1e21 ? PLAIN.format(value) : String(value);
}

/** TypeORM transformer: `numeric(12,2)` column ↔ integer cents. */
export const centsColumn: ValueTransformer = {
  to: (value: Cents | null | undefined) => (value === null || value === undefined ? value : centsToDecimal(value)),
  from: (value: string | null) => (value === null ? null : toCents(value)),
};
