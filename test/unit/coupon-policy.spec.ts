import { couponDiscount, couponRejection, CouponRow } from '../../src/modules/discounts/coupon-policy';

/** The coupon rules are plain functions (discounts/coupon-policy.ts): judged here without a database. */
describe('coupon policy', () => {
  describe('discount', () => {
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
      ['percent', 9_999, 999_999_999_999, 999_899_999_999], // past 2^53 as a float product
      ['percent', 10_000, 999_999_999_999, 999_999_999_999],
    ] as const)('%s %d on %d → %d', (type, value, amount, expected) => {
      expect(couponDiscount({ type, value }, amount)).toBe(expected);
    });

    it('never gives more than the amount', () => {
      for (const amount of [0, 1, 999, 10_000]) {
        expect(couponDiscount({ type: 'fixed', value: 50_000 }, amount)).toBe(amount);
        expect(couponDiscount({ type: 'percent', value: 10_000 }, amount)).toBe(amount);
      }
    });
  });

  describe('rejection, in a stable order', () => {
    const now = new Date('2026-05-01T12:00:00.000Z');
    const coupon = (overrides: Partial<CouponRow> = {}): CouponRow => ({
      id: 1,
      code: 'SAVE',
      type: 'percent',
      value: 1_000,
      status: 'active',
      neverExpires: true,
      expiresAt: null,
      usesLimit: null,
      usedCount: 0,
      productIds: [],
      singleUse: false,
      ...overrides,
    });
    const rejection = (row: CouponRow | null, productId = 7, heldByCustomer = false) =>
      couponRejection(row, { productId, now, heldByCustomer });

    it('accepts an active coupon with uses left, no expiry, every product', () => {
      expect(rejection(coupon())).toBeNull();
      expect(rejection(coupon({ usesLimit: 5, usedCount: 4 }))).toBeNull();
      expect(rejection(coupon({ productIds: [1, 7] }))).toBeNull();
      expect(rejection(coupon({ neverExpires: true, expiresAt: new Date('2000-01-01T00:00:00Z') }))).toBeNull();
      // Held by the customer matters only for a single-use coupon.
      expect(rejection(coupon(), 7, true)).toBeNull();
    });

    it('names each broken rule', () => {
      expect(rejection(null)).toBe('unknown');
      expect(rejection(coupon({ status: 'inactive' }))).toBe('inactive');
      expect(rejection(coupon({ neverExpires: false, expiresAt: now }))).toBe('expired');
      expect(rejection(coupon({ neverExpires: false, expiresAt: new Date(now.getTime() + 1) }))).toBeNull();
      expect(rejection(coupon({ usesLimit: 5, usedCount: 5 }))).toBe('exhausted');
      expect(rejection(coupon({ productIds: [1, 2] }))).toBe('product');
      expect(rejection(coupon({ singleUse: true }), 7, true)).toBe('used_by_customer');
      expect(rejection(coupon({ singleUse: true }), 7, false)).toBeNull();
    });

    it('reports the first broken rule: inactive, expired, exhausted, product, used by the customer', () => {
      const everythingWrong = coupon({
        status: 'inactive',
        neverExpires: false,
        expiresAt: now,
        usesLimit: 1,
        usedCount: 1,
        productIds: [1],
        singleUse: true,
      });
      const judge = (row: CouponRow) => rejection(row, 7, true);
      expect(judge(everythingWrong)).toBe('inactive');
      expect(judge({ ...everythingWrong, status: 'active' })).toBe('expired');
      expect(judge({ ...everythingWrong, status: 'active', neverExpires: true })).toBe('exhausted');
      expect(judge({ ...everythingWrong, status: 'active', neverExpires: true, usesLimit: null })).toBe('product');
      expect(judge({ ...everythingWrong, status: 'active', neverExpires: true, usesLimit: null, productIds: [] })).toBe(
        'used_by_customer',
      );
    });
  });
});
