import { centsToDecimal, centsToNumber, hasAtMostTwoDecimals, percentOf, toCents } from '../../src/common/money';
import { paginated, pageRequest } from '../../src/common/pagination/pagination';
import { formatTimestamp } from '../../src/common/time';

describe('formatTimestamp', () => {
  it('prints UTC with six fractional digits and Z', () => {
    expect(formatTimestamp(new Date('2026-01-02T03:04:05.678Z'))).toBe('2026-01-02T03:04:05.678000Z');
    expect(formatTimestamp(new Date('2026-01-02T03:04:05Z'))).toBe('2026-01-02T03:04:05.000000Z');
    expect(formatTimestamp(new Date(Date.UTC(12345, 0, 1)))).toBe('+012345-01-01T00:00:00.000000Z');
    expect(formatTimestamp(null)).toBeNull();
    expect(formatTimestamp(undefined)).toBeNull();
  });
});

describe('money', () => {
  it('parses decimals exactly into cents', () => {
    expect(toCents('0.01')).toBe(1);
    expect(toCents(19.99)).toBe(1999);
    expect(toCents('100')).toBe(10000);
    expect(toCents(0.1 + 0.2)).toBe(30); // float noise beyond the cent is cut, not rounded up
  });

  it('formats cents as numeric strings and JSON numbers', () => {
    expect(centsToDecimal(105)).toBe('1.05');
    expect(centsToDecimal(-5)).toBe('-0.05');
    expect(centsToNumber(1050)).toBe(10.5);
    expect(centsToNumber(1)).toBe(0.01);
    expect(centsToNumber(-5)).toBe(-0.05);
  });

  it('gives as JSON number exactly the number the numeric string reads as', () => {
    const same = (cents: number) => {
      if (centsToNumber(cents) !== Number(centsToDecimal(cents)))
        throw new Error(`${cents}: ${centsToNumber(cents)} ≠ ${centsToDecimal(cents)}`);
    };
    for (let cents = -100_000; cents <= 2_000_000; cents++) same(cents);
    // numeric(12,2) reaches 10¹² − 0.01; beyond it, up to 2⁵³, by a spread of values.
    for (let cents = 99_999_999_999_999; cents > 2_000_000; cents = Math.floor(cents / 1.0007)) same(cents);
    for (let cents = Number.MAX_SAFE_INTEGER; cents > 1e15; cents = Math.floor(cents / 1.01)) same(cents);
  });

  it('computes a percent rounded half up to the cent', () => {
    expect(percentOf(999, 10)).toBe(100); // 99.9 → 100
    expect(percentOf(1000, 12.5)).toBe(125);
    expect(percentOf(1001, 50)).toBe(501); // 500.5 → 501
  });

  it('detects more than two decimals', () => {
    expect(hasAtMostTwoDecimals(10.25)).toBe(true);
    expect(hasAtMostTwoDecimals(10.255)).toBe(false);
  });

  it('decides two decimals and cents as the shortest decimal form does, without formatting', () => {
    // The reference: the number's shortest decimal form, as JSON.parse'd amounts are written.
    const plain = new Intl.NumberFormat('en-US', { useGrouping: false, maximumFractionDigits: 20 });
    const reference = (v: number) =>
      Number.isFinite(v) && /^-?\d+(\.\d{1,2})?$/.test(Math.abs(v) < 1e21 ? plain.format(v) : String(v));
    const check = (v: number) => {
      const expected = reference(v);
      if (hasAtMostTwoDecimals(v) !== expected) throw new Error(`hasAtMostTwoDecimals(${v}) should be ${expected}`);
      if (expected && Math.abs(v) < 1e21) {
        const [whole, fraction = ''] = plain.format(Math.abs(v)).split('.');
        const exact = (v < 0 ? -1 : 1) * (Number(whole) * 100 + Number(fraction.padEnd(2, '0')));
        if (toCents(v) !== exact) throw new Error(`toCents(${v}) = ${toCents(v)}, not ${exact}`);
      }
    };
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let k = -200_000; k <= 200_000; k++) {
      check(k / 100);
      check(k / 1000);
      check(k / 100 + 1e-9);
    }
    for (let i = 0; i < 200_000; i++) {
      const magnitude = 10 ** Math.floor(random() * 16);
      check(Math.round(random() * magnitude) / 100);
      check(random() * magnitude);
    }
    for (const v of [
      1e13 - 0.01,
      1e13,
      1e13 + 0.5,
      99_999_999_999.99,
      0.1 + 0.2,
      1.005,
      -0.01,
      1e21,
      5e-324,
      NaN,
      Infinity,
      -Infinity,
    ])
      check(v);
  });
});

describe('pagination envelope', () => {
  it('computes last_page as max(1, ceil(total / per_page))', () => {
    expect(paginated('orders', [], 0, pageRequest({ page: 1, per_page: 15 }))).toEqual({
      status: 'success',
      page: 1,
      per_page: 15,
      last_page: 1,
      total: 0,
      orders: [],
    });
    expect(paginated('orders', [1], 31, pageRequest({ page: 3, per_page: 15 })).last_page).toBe(3);
    expect(pageRequest({ page: 3, per_page: 10 }).offset).toBe(20);
  });
});
