import { CustomTypesConfig, types } from 'pg';

const TIMESTAMPTZ = 1184;
const pgParseTimestamptz: (text: string) => Date = types.getTypeParser(TIMESTAMPTZ, 'text');

/** PostgreSQL's text form of a `timestamptz` at offset zero, years 1000–9999 (what a UTC session sends). */
const UTC_TIMESTAMP = /^[1-9]\d{3}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{1,6})?\+00$/;

function digits(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) n = n * 10 + text.charCodeAt(i) - 48;
  return n;
}

/**
 * `timestamptz` text to a Date, the same Date as pg's own parser (postgres-date) gives: at offset
 * zero its fields are read by position with one shape check, instead of three regular expressions
 * and a time-zone parse; anything else (another offset, BC, infinity) goes to pg's parser. The
 * fraction is converted with the same arithmetic (1000 × the decimal, truncated by Date.UTC), so
 * sub-millisecond digits are dropped exactly as before.
 */
export function parseTimestamptz(text: string): Date {
  if (!UTC_TIMESTAMP.test(text)) return pgParseTimestamptz(text);
  const ms = text.length > 22 ? 1000 * Number(text.slice(19, -3)) : 0;
  return new Date(
    Date.UTC(
      digits(text, 0, 4),
      digits(text, 5, 7) - 1,
      digits(text, 8, 10),
      digits(text, 11, 13),
      digits(text, 14, 16),
      digits(text, 17, 19),
      ms,
    ),
  );
}

/**
 * Type parsers of the pool: pg's, with `parseTimestamptz`. Every row read carries two to five
 * timestamps (a read of an order about ten, with the API key's), parsed on the request's CPU.
 */
export const poolTypes: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMPTZ && format !== 'binary'
      ? parseTimestamptz
      : types.getTypeParser(oid, format)) as CustomTypesConfig['getTypeParser'],
};
