import { types } from 'pg';
import { parseTimestamptz, poolTypes } from '../../src/database/timestamps';

/** pg's own parser of `timestamptz` text (postgres-date): the reference, value for value. */
const reference: (text: string) => Date = types.getTypeParser(1184, 'text');

function expectSame(text: string): void {
  const ours = parseTimestamptz(text);
  const theirs = reference(text);
  if (ours.getTime() !== theirs.getTime() && !(Number.isNaN(ours.getTime()) && Number.isNaN(theirs.getTime()))) {
    throw new Error(`${text}: ${ours.toISOString()} ≠ ${theirs.toISOString()}`);
  }
}

describe('parseTimestamptz', () => {
  it('reads UTC timestamps to the millisecond, dropping sub-millisecond digits as pg does', () => {
    expect(parseTimestamptz('2026-01-31 10:02:11.123987+00').toISOString()).toBe('2026-01-31T10:02:11.123Z');
    expect(parseTimestamptz('2026-01-31 10:02:11.5+00').toISOString()).toBe('2026-01-31T10:02:11.500Z');
    expect(parseTimestamptz('2026-01-31 10:02:11+00').toISOString()).toBe('2026-01-31T10:02:11.000Z');
  });

  it('gives the same instant as pg for every fraction of up to four digits and a spread of six-digit ones', () => {
    for (let length = 1; length <= 4; length++) {
      for (let f = 0; f < 10 ** length; f++) expectSame(`2026-03-04 05:06:07.${String(f).padStart(length, '0')}+00`);
    }
    for (let f = 0; f < 1_000_000; f += 37) expectSame(`2026-03-04 05:06:07.${String(f).padStart(6, '0')}+00`);
  });

  it('gives the same instant as pg at calendar edges', () => {
    for (const text of [
      '2024-02-29 23:59:59.999999+00',
      '1999-12-31 23:59:59.9995+00',
      '2000-01-01 00:00:00+00',
      '1000-01-01 00:00:00.000001+00',
      '9999-12-31 23:59:59.999+00',
    ]) {
      expectSame(text);
    }
  });

  it('leaves other offsets, eras and infinities to pg', () => {
    for (const text of [
      '2026-03-04 05:06:07.25+02',
      '2026-03-04 05:06:07-03:30',
      '0099-01-01 00:00:00+00',
      '2026-03-04 05:06:07+00 BC',
      '12026-03-04 05:06:07+00',
    ]) {
      expectSame(text);
    }
    expect(parseTimestamptz('2026-03-04 05:06:07.25+02').toISOString()).toBe('2026-03-04T03:06:07.250Z');
    expect(parseTimestamptz('infinity')).toBe(Infinity);
    expect(parseTimestamptz('-infinity')).toBe(-Infinity);
  });

  it('is the pool’s timestamptz parser; every other type keeps pg’s', () => {
    expect(poolTypes.getTypeParser(1184, 'text')).toBe(parseTimestamptz);
    expect(poolTypes.getTypeParser(1114, 'text')).toBe(types.getTypeParser(1114, 'text'));
    expect(poolTypes.getTypeParser(1700, 'text')).toBe(types.getTypeParser(1700, 'text'));
  });
});
