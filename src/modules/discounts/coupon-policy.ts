import type { Cents } from '../../common/money';
import type { Discount } from './discount.entity';

/**
 * The coupon rules (README, *Choices where the contract is silent*; OpenAPI: `POST /v1/orders`),
 * as plain functions over the rows they judge: no database, no clock of their own. The one rule
 * that must hold under races is also kept by the database: the use is taken by a conditional
 * UPDATE that never lets `used_count` pass `uses_limit` (`coupon-use.ts`), and billing's unique
 * index refuses a second pending or approved order of one customer with a single-use coupon.
 */

/** What the rules read of a coupon. */
export type CouponRow = Pick<
  Discount,
  | 'id'
  | 'code'
  | 'type'
  | 'value'
  | 'status'
  | 'productIds'
  | 'usesLimit'
  | 'usedCount'
  | 'singleUse'
  | 'neverExpires'
  | 'expiresAt'
>;

export type CouponRejection = 'unknown' | 'inactive' | 'expired' | 'exhausted' | 'product' | 'used_by_customer';

export const COUPON_REJECTION_MESSAGES: Record<CouponRejection, string> = {
  unknown: 'Coupon code is invalid.',
  inactive: 'Coupon is not active.',
  expired: 'Coupon has expired.',
  exhausted: 'Coupon has no uses left.',
  product: 'Coupon does not apply to this product.',
  used_by_customer: 'Coupon has already been used by this customer.',
};

/** What a coupon is judged against. */
export interface CouponApplication {
  /** The ordered product's id. */
  productId: number;
  now: Date;
  /**
   * Whether this customer already holds a pending or approved order with this coupon (asked of
   * billing, which keeps the orders; it matters only for a single-use coupon).
   */
  heldByCustomer: boolean;
}

/** Whether the coupon has a use left (the conditional UPDATE that takes one checks it again). */
export const hasUseLeft = (coupon: Pick<CouponRow, 'usesLimit' | 'usedCount'>): boolean =>
  coupon.usesLimit === null || coupon.usedCount < coupon.usesLimit;

/**
 * Why the coupon cannot be used, or null when it can; checked in this order: unknown, inactive,
 * expired (valid strictly before `expires_at`), exhausted, product, used by this customer.
 */
export function couponRejection(coupon: CouponRow | null, application: CouponApplication): CouponRejection | null {
  if (!coupon) return 'unknown';
  if (coupon.status !== 'active') return 'inactive';
  if (!coupon.neverExpires && coupon.expiresAt !== null && coupon.expiresAt.getTime() <= application.now.getTime())
    return 'expired';
  if (!hasUseLeft(coupon)) return 'exhausted';
  if (coupon.productIds.length > 0 && !coupon.productIds.includes(application.productId)) return 'product';
  if (coupon.singleUse && application.heldByCustomer) return 'used_by_customer';
  return null;
}

/**
 * The discount on `amount`: a fixed coupon takes its value, at most the amount; a percent coupon
 * (its value in hundredths of a percent: 12.5 % is 1250) takes amount × value / 10,000 rounded half
 * up to the cent. Integer arithmetic: exact for every `numeric(12,2)` amount.
 */
export function couponDiscount(coupon: Pick<CouponRow, 'type' | 'value'>, amount: Cents): Cents {
  if (coupon.type === 'fixed') return Math.min(coupon.value, amount);
  const share = Number((BigInt(amount) * BigInt(coupon.value) * 2n + 10_000n) / 20_000n);
  return Math.min(share, amount);
}
