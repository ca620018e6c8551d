/**
 * The part of redeeming a coupon that must be atomic under races, and so stays SQL: taking a use.
 * The coupon rules themselves are plain TypeScript (`coupon-policy.ts`); this UPDATE only re-checks
 * that a use is left, on the row as the last redemption committed it. Under READ COMMITTED a
 * waiting UPDATE re-reads the row after the holder commits, so `used_count` never passes
 * `uses_limit` (and the table's check constraint would refuse it if it did).
 *
 * A statement that writes an order with a coupon runs this as its first write and writes the order
 * only for the row it returns: the coupon's row is then locked from this UPDATE to that statement's
 * commit, the only span in which redemptions of one coupon queue.
 */
export interface CouponUseStatement {
  /** `UPDATE … RETURNING id`: one row when the use was taken, none when no use was left. */
  text: string;
}

/** Takes one use of the coupon whose id is the SQL expression `id` (a parameter such as `$3`). */
export function takeCouponUse(id: string): CouponUseStatement {
  return {
    text:
      `UPDATE discounts SET used_count = used_count + 1 ` +
      `WHERE id = ${id} AND (uses_limit IS NULL OR used_count < uses_limit) RETURNING id`,
  };
}
