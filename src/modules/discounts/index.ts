/**
 * Discounts' public surface: what other modules, the app wiring and the CLI may import
 * (CONTRIBUTING.md, Layout). Everything else under discounts/ is private to the module.
 */
export { Discount } from './discount.entity';
export { codeKey } from './discount-input';
export {
  COUPON_REJECTION_MESSAGES,
  couponDiscount,
  couponRejection,
  type CouponApplication,
  type CouponRejection,
  type CouponRow,
} from './coupon-policy';
export { takeCouponUse, type CouponUseStatement } from './coupon-use';
export { CouponRedemptionService } from './coupon-redemption.service';
export { DiscountsService } from './discounts.service';
export { DiscountsModule } from './discounts.module';
export { DiscountsWebModule } from './web/discounts-web.module';
