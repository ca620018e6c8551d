import { Cents } from '../../common/money';
import type { Discount } from './discount.entity';

/**
 * The discount a coupon gives on `amount` (decisions §7): fixed → min(value, amount);
 * percent → amount × value / 100, rounded half up to the cent.
 */
export function discountFor(discount: Pick<Discount, 'type' | 'value'>, amount: Cents): Cents {
  if (discount.type === 'fixed') return Math.min(discount.value, amount);
  // A percent is stored in hundredths (12.5% → 1250), i.e. basis points. BigInt, because the
  // product of the largest `numeric(12,2)` amount and 100% (10^12 × 10^4) passes 2^53.
  const basisPoints = BigInt(discount.value);
  const discounted = Number((BigInt(amount) * basisPoints + BigInt(5_000)) / BigInt(10_000));
  return Math.min(discounted, amount);
}

export type CouponRejection = 'inactive' | 'expired' | 'exhausted' | 'product' | 'used_by_customer';

export const COUPON_REJECTION_MESSAGES: Record<CouponRejection | 'unknown', string> = {
  unknown: 'Coupon code is invalid.',
  inactive: 'Coupon is not active.',
  expired: 'Coupon has expired.',
  exhausted: 'Coupon has no uses left.',
  product: 'Coupon does not apply to this product.',
  used_by_customer: 'Coupon has already been used by this customer.',
};

/**
 * Why a coupon cannot be used now, or null when it can. A coupon is valid strictly before its
 * `expires_at`; `product_ids` empty covers every product.
 */
export function rejectionOf(
  discount: Pick<Discount, 'status' | 'neverExpires' | 'expiresAt' | 'usesLimit' | 'usedCount' | 'productIds'>,
  productId: number,
  now: Date,
): Exclude<CouponRejection, 'used_by_customer'> | null {
  if (discount.status !== 'active') return 'inactive';
  if (!discount.neverExpires && discount.expiresAt && discount.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (discount.usesLimit !== null && discount.usedCount >= discount.usesLimit) return 'exhausted';
  if (discount.productIds.length && !discount.productIds.includes(productId)) return 'product';
  return null;
}
