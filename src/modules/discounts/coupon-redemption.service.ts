import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ValidationError } from '../../common/errors/app-error';
import { Cents } from '../../common/money';
import { Clock, CLOCK } from '../../common/time';
import { COUPON_REJECTION_MESSAGES, couponDiscount, couponRejection, CouponRow } from './coupon-policy';
import { codeKey } from './discount-input';
import { DiscountsRepository } from './discounts.repository';

export interface CouponRequest {
  storeId: number;
  code: string;
  productId: number;
  /** The amount the discount applies to, in cents. */
  amount: Cents;
  /**
   * Whether the customer already holds a pending or approved order with the coupon (billing keeps
   * the orders), asked once the coupon's row is locked, on the reservation's transaction.
   */
  heldByCustomer: (discountId: number, manager: EntityManager) => Promise<boolean>;
}

export interface CouponReservation {
  discountId: number;
  /** The code as the seller wrote it. */
  code: string;
  discountAmount: Cents;
}

/**
 * What other modules ask of coupons: the row the coupon rules (coupon-policy.ts) judge for a new
 * order, and a use taken for an existing order (README, *Choices where the contract is silent*: a
 * cancelled order reused by `from_order` takes its use again). New orders take theirs in the
 * statement that writes them (`takeCouponUse`), after billing applied the same rules.
 */
@Injectable()
export class CouponRedemptionService {
  constructor(
    private readonly discounts: DiscountsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The store's coupon with this code (any case), as the rules read it; null when there is none. */
  find(storeId: number, code: string): Promise<CouponRow | null> {
    return this.discounts.couponByCode(storeId, codeKey(code));
  }

  /**
   * Reserves one use of the coupon inside the caller's transaction, or throws a 422 on
   * `coupon_code` saying why it cannot apply. The row is locked first, until that transaction ends,
   * so two reservations racing (for the last use, or by one email on a single-use coupon) cannot
   * both pass; the use then commits or rolls back with the order.
   */
  async reserve(manager: EntityManager, request: CouponRequest): Promise<CouponReservation> {
    const coupon = await this.discounts.lockCouponByCode(manager, request.storeId, codeKey(request.code));
    const rejection = couponRejection(coupon, {
      productId: request.productId,
      now: this.clock.now(),
      heldByCustomer: coupon?.singleUse ? await request.heldByCustomer(coupon.id, manager) : false,
    });
    if (rejection) throw ValidationError.field('coupon_code', COUPON_REJECTION_MESSAGES[rejection]);
    // Locked and judged to have a use left: the conditional UPDATE takes it.
    if (!(await this.discounts.takeUse(manager, coupon!.id)))
      throw ValidationError.field('coupon_code', COUPON_REJECTION_MESSAGES.exhausted);
    return { discountId: coupon!.id, code: coupon!.code, discountAmount: couponDiscount(coupon!, request.amount) };
  }

  /** Returns the use an order held (its cancellation). */
  release(manager: EntityManager, discountId: number): Promise<void> {
    return this.discounts.releaseUse(manager, discountId);
  }
}
