/**
 * The coupon rules (README, *Choices where the contract is silent*), written once, in SQL: they must hold at the instant a use is
 * taken, so they are evaluated by the statement that takes it (order creation's, or `reserve`'s).
 * TypeScript only maps the reason a statement gives to its message.
 *
 * `d` is the alias of the `discounts` row found for the code (all its columns null when no coupon
 * of the store has it); the other inputs are SQL expressions of the statement using the rules.
 */
export interface CouponRuleInputs {
  /** The ordered product's id. */
  productId: string;
  /** The amount the discount applies to, `numeric` in currency units (the request's amount). */
  amount: string;
  /** The customer's email, lower-cased as customers store it. */
  email: string;
  /** `timestamptz`: the application clock's now (a coupon is valid strictly before `expires_at`). */
  now: string;
}

export type CouponRejection = 'unknown' | 'inactive' | 'expired' | 'exhausted' | 'product' | 'used_by_customer';

export const COUPON_REJECTION_MESSAGES: Record<CouponRejection, string> = {
  unknown: 'Coupon code is invalid.',
  inactive: 'Coupon is not active.',
  expired: 'Coupon has expired.',
  exhausted: 'Coupon has no uses left.',
  product: 'Coupon does not apply to this product.',
  used_by_customer: 'Coupon has already been used by this customer.',
};

/** Whether the coupon has a use left. Also the guard of the UPDATE that takes one (see `takeUseSql`). */
export const hasUseLeft = (d: string) => `(${d}.uses_limit IS NULL OR ${d}.used_count < ${d}.uses_limit)`;

/** Whether this email already holds a pending or approved order with the coupon (single use). */
export const heldByEmail = (discountId: string, email: string) =>
  `EXISTS (SELECT 1 FROM orders ho JOIN customers hc ON hc.id = ho.customer_id ` +
  `WHERE ho.discount_id = ${discountId} AND hc.email = ${email} AND ho.status IN ('pending', 'approved'))`;

/**
 * Why the coupon cannot be used, as a `CouponRejection` (text), or NULL when it can; checked in
 * this order: unknown, inactive, expired, exhausted, product, used by this customer.
 */
export function couponRejectionSql(d: string, x: CouponRuleInputs): string {
  return (
    `CASE WHEN ${d}.id IS NULL THEN 'unknown' ` +
    `WHEN ${d}.status <> 'active' THEN 'inactive' ` +
    `WHEN NOT ${d}.never_expires AND ${d}.expires_at IS NOT NULL AND ${d}.expires_at <= ${x.now} THEN 'expired' ` +
    `WHEN NOT ${hasUseLeft(d)} THEN 'exhausted' ` +
    `WHEN cardinality(${d}.product_ids) > 0 AND NOT (${x.productId} = ANY (${d}.product_ids)) THEN 'product' ` +
    `WHEN ${d}.single_use AND ${heldByEmail(`${d}.id`, x.email)} THEN 'used_by_customer' END`
  );
}

/**
 * The discount on `amount` (`numeric`, currency units): fixed → min(value, amount); percent (stored
 * as the percent, 12.50 for 12.5 %) → amount × value / 100 rounded half up to the cent (numeric
 * `round` rounds half away from zero; amounts are positive). Exact at any `numeric(12,2)` amount.
 */
export function couponDiscountSql(d: string, x: Pick<CouponRuleInputs, 'amount'>): string {
  return `LEAST(CASE WHEN ${d}.type = 'fixed' THEN ${d}.value ELSE round(${x.amount} * ${d}.value / 100, 2) END, ${x.amount})`;
}

/**
 * Takes one use of the coupon whose id is `id` (an expression over `from`), only `when` holds and a
 * use is left. Run as the last write before its statement commits: the row stays locked from here
 * to the commit, so this is the only span in which redemptions of one coupon queue. Under READ
 * COMMITTED a waiting UPDATE re-checks `hasUseLeft` on the row as the previous holder committed it,
 * so `used_count` never passes `uses_limit` (and the table's check constraint would refuse it).
 */
export function takeUseSql(from: string, id: string, when: string): string {
  return (
    `UPDATE discounts d SET used_count = d.used_count + 1 FROM ${from} ` +
    `WHERE ${when} AND d.id = ${id} AND ${hasUseLeft('d')} RETURNING d.id`
  );
}
