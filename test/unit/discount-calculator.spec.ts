import { Discount } from '../../src/modules/discounts/discount.entity';
import { COUPON_REJECTION_MESSAGES, discountFor, rejectionOf } from '../../src/modules/discounts/discount-calculator';

type Coupon = Pick<Discount, 'status' | 'neverExpires' | 'expiresAt' | 'usesLimit' | 'usedCount' | 'productIds'>;

const NOW = new Date('2026-05-01T12:00:00.000Z');
const coupon = (overrides: Partial<Coupon> = {}): Coupon => ({
  status: 'active',
  neverExpires: true,
  expiresAt: null,
  usesLimit: null,
  usedCount: 0,
  productIds: [],
  ...overrides,
});

describe('discountFor (cents)', () => {
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
    ['percent', 777, 999_999_999_999, 77_700_000_000], // 7.77% of 9,999,999,999.99 = 776,999,999.99 + .9223 → up
    ['percent', 9_999, 999_999_999_999, 999_899_999_999], // 99.99% of the largest amount, past 2^53 in floats
    ['percent', 10_000, 999_999_999_999, 999_999_999_999],
  ] as const)('%s %d on %d → %d', (type, value, amount, expected) => {
    expect(discountFor({ type, value }, amount)).toBe(expected);
  });

  it('never gives more than the amount', () => {
    for (const amount of [0, 1, 999, 10_000]) {
      expect(discountFor({ type: 'fixed', value: 50_000 }, amount)).toBe(amount);
      expect(discountFor({ type: 'percent', value: 10_000 }, amount)).toBe(amount);
    }
  });
});

describe('rejectionOf', () => {
  it('accepts an active coupon with uses left, no expiry, every product', () => {
    expect(rejectionOf(coupon(), 7, NOW)).toBeNull();
  });

  it('inactive', () => {
    expect(rejectionOf(coupon({ status: 'inactive' }), 7, NOW)).toBe('inactive');
  });

  it('expires exactly at expires_at: valid 1 ms before, expired at and after', () => {
    const expiresAt = NOW;
    const dated = coupon({ neverExpires: false, expiresAt });
    expect(rejectionOf(dated, 7, new Date(NOW.getTime() - 1))).toBeNull();
    expect(rejectionOf(dated, 7, NOW)).toBe('expired');
    expect(rejectionOf(dated, 7, new Date(NOW.getTime() + 1))).toBe('expired');
  });

  it('ignores a stale expires_at when the coupon never expires', () => {
    expect(rejectionOf(coupon({ neverExpires: true, expiresAt: new Date('2000-01-01T00:00:00Z') }), 7, NOW)).toBeNull();
  });

  it('exhausted when used_count reaches uses_limit; unlimited never is', () => {
    expect(rejectionOf(coupon({ usesLimit: 5, usedCount: 4 }), 7, NOW)).toBeNull();
    expect(rejectionOf(coupon({ usesLimit: 5, usedCount: 5 }), 7, NOW)).toBe('exhausted');
    expect(rejectionOf(coupon({ usesLimit: null, usedCount: 1_000_000 }), 7, NOW)).toBeNull();
  });

  it('product not covered unless the list is empty or holds it', () => {
    expect(rejectionOf(coupon({ productIds: [1, 2] }), 2, NOW)).toBeNull();
    expect(rejectionOf(coupon({ productIds: [1, 2] }), 3, NOW)).toBe('product');
  });

  it('answers the first reason in a fixed order', () => {
    const everythingWrong = coupon({ status: 'inactive', neverExpires: false, expiresAt: NOW, usesLimit: 1, usedCount: 1, productIds: [1] });
    expect(rejectionOf(everythingWrong, 2, NOW)).toBe('inactive');
    expect(rejectionOf({ ...everythingWrong, status: 'active' }, 2, NOW)).toBe('expired');
    expect(rejectionOf({ ...everythingWrong, status: 'active', neverExpires: true }, 2, NOW)).toBe('exhausted');
    expect(rejectionOf({ ...everythingWrong, status: 'active', neverExpires: true, usesLimit: null }, 2, NOW)).toBe('product');
  });

  it('has a message for every reason', () => {
    expect(COUPON_REJECTION_MESSAGES).toEqual({
      unknown: 'Coupon code is invalid.',
      inactive: 'Coupon is not active.',
      expired: 'Coupon has expired.',
      exhausted: 'Coupon has no uses left.',
      product: 'Coupon does not apply to this product.',
      used_by_customer: 'Coupon has already been used by this customer.',
    });
  });
});
