import { centsToDecimal, toCents } from '../../../src/common/money';
import { couponDiscountSql, couponRejectionSql } from '../../../src/modules/discounts/coupon-rules';
import { createTestApp, TestApp } from '../../utils/test-app';

/**
 * The coupon rules are SQL (coupon-rules.ts), evaluated by the statement that takes a use; these
 * cases run them on PostgreSQL over rows shaped like `discounts`, without the order around them.
 */
describe('coupon rules (SQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function discount(type: 'fixed' | 'percent', value: number, amount: number): Promise<number> {
    const d = `(SELECT $1::varchar AS type, $2::numeric AS value) d`;
    const [{ discount }] = await t.dataSource.query(
      `SELECT ${couponDiscountSql('d', { amount: '$3::numeric' })}::text AS discount FROM ${d}`,
      [type, centsToDecimal(value), centsToDecimal(amount)],
    );
    return toCents(discount);
  }

  it.each([
    // [type, value in cents or hundredths of a percent, amount in cents, expected cents]
    ['fixed', 1_000, 10_000, 1_000],
    ['fixed', 1, 1_000, 1],
    ['fixed', 15_000, 10_000, 10_000],
    ['fixed', 10_000, 10_000, 10_000],
    ['percent', 1_000, 10_000, 1_000],
    ['percent', 1_000, 9_999, 1_000], // 999.9 → 1000
    ['percent', 5_000, 1_001, 501], // 500.5 → 501, half up
    ['percent', 5_000, 1_003, 502], // 501.5 → 502, half up (not to even)
    ['percent', 1_250, 1_001, 125], // 125.125 → 125
    ['percent', 3_333, 10_000, 3_333],
    ['percent', 10_000, 12_345, 12_345],
    ['percent', 1, 1_000, 0], // 0.1 cent → 0
    ['percent', 1, 5_000, 1], // 0.5 cent → 1
    ['percent', 777, 999_999_999_999, 77_700_000_000],
    ['percent', 9_999, 999_999_999_999, 999_899_999_999], // past 2^53 in floats
    ['percent', 10_000, 999_999_999_999, 999_999_999_999],
  ] as const)('%s %d on %d → %d', async (type, value, amount, expected) => {
    expect(await discount(type, value, amount)).toBe(expected);
  });

  it('never gives more than the amount', async () => {
    for (const amount of [0, 1, 999, 10_000]) {
      expect(await discount('fixed', 50_000, amount)).toBe(amount);
      expect(await discount('percent', 10_000, amount)).toBe(amount);
    }
  });

  describe('rejection, in a stable order', () => {
    const NOW = '2026-05-01T12:00:00.000Z';
    type Row = {
      status: string;
      never_expires: boolean;
      expires_at: string | null;
      uses_limit: number | null;
      used_count: number;
      product_ids: number[];
    };
    const coupon = (overrides: Partial<Row> = {}): Row => ({
      status: 'active',
      never_expires: true,
      expires_at: null,
      uses_limit: null,
      used_count: 0,
      product_ids: [],
      ...overrides,
    });
    async function rejection(row: Row | null, productId = 7): Promise<string | null> {
      const d =
        `(SELECT 1 AS id, $1::varchar AS status, $2::boolean AS never_expires, $3::timestamptz AS expires_at, $4::int AS uses_limit, ` +
        `$5::int AS used_count, $6::int[] AS product_ids, false AS single_use) d`;
      const sql = `SELECT ${couponRejectionSql('d', { productId: '$7::int', amount: '0', email: "''", now: '$8::timestamptz' })} AS r FROM ${d}`;
      if (row === null) {
        const [{ r }] = await t.dataSource.query(
          `SELECT ${couponRejectionSql('d', { productId: '7', amount: '0', email: "''", now: 'now()' })} AS r FROM (SELECT 1) one LEFT JOIN discounts d ON false`,
        );
        return r;
      }
      const [{ r }] = await t.dataSource.query(sql, [
        row.status,
        row.never_expires,
        row.expires_at,
        row.uses_limit,
        row.used_count,
        row.product_ids,
        productId,
        NOW,
      ]);
      return r;
    }

    it('accepts an active coupon with uses left, no expiry, every product', async () => {
      expect(await rejection(coupon())).toBeNull();
      expect(await rejection(coupon({ uses_limit: 5, used_count: 4 }))).toBeNull();
      expect(await rejection(coupon({ product_ids: [1, 7] }))).toBeNull();
      expect(await rejection(coupon({ never_expires: true, expires_at: '2000-01-01T00:00:00Z' }))).toBeNull();
    });

    it('names each broken rule', async () => {
      expect(await rejection(null)).toBe('unknown');
      expect(await rejection(coupon({ status: 'inactive' }))).toBe('inactive');
      expect(await rejection(coupon({ never_expires: false, expires_at: NOW }))).toBe('expired');
      expect(await rejection(coupon({ never_expires: false, expires_at: '2026-05-01T12:00:00.001Z' }))).toBeNull();
      expect(await rejection(coupon({ uses_limit: 5, used_count: 5 }))).toBe('exhausted');
      expect(await rejection(coupon({ product_ids: [1, 2] }))).toBe('product');
    });

    it('reports the first broken rule: inactive, expired, exhausted, product', async () => {
      const everythingWrong = coupon({
        status: 'inactive',
        never_expires: false,
        expires_at: NOW,
        uses_limit: 1,
        used_count: 1,
        product_ids: [1],
      });
      expect(await rejection(everythingWrong)).toBe('inactive');
      expect(await rejection({ ...everythingWrong, status: 'active' })).toBe('expired');
      expect(await rejection({ ...everythingWrong, status: 'active', never_expires: true })).toBe('exhausted');
      expect(await rejection({ ...everythingWrong, status: 'active', never_expires: true, uses_limit: null })).toBe(
        'product',
      );
    });
  });
});
