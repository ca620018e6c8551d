import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ValidationError } from '../../common/errors/app-error';
import { Cents } from '../../common/money';
import { Clock, CLOCK } from '../../common/time';
import { COUPON_REJECTION_MESSAGES, discountFor, rejectionOf } from './discount-calculator';
import { DiscountsRepository } from './discounts.repository';

/**
 * Who holds a coupon is a question about orders, which belong to billing: the caller answers it
 * (billing's SalesQueryService), so discounts never reads billing's tables.
 */
export interface CouponHolders {
  /** Whether `email` holds a pending or approved order with the coupon, in `manager`'s transaction. */
  isCouponHeldByEmail(manager: EntityManager, discountId: number, email: string): Promise<boolean>;
}

export interface CouponRequest {
  storeId: number;
  code: string;
  productId: number;
  /** The amount the discount applies to, in cents. */
  amount: Cents;
  customerEmail: string;
  /** Asked for a single-use coupon only. */
  holders: CouponHolders;
}

export interface CouponReservation {
  discountId: number;
  /** The code as the seller wrote it. */
  code: string;
  discountAmount: Cents;
}

/**
 * Applying a coupon to an order (decisions §7). Both methods run inside the caller's transaction,
 * so a reserved use commits or rolls back with the order that holds it.
 */
@Injectable()
export class CouponRedemptionService {
  constructor(
    private readonly discounts: DiscountsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Reserves one use of the coupon, or throws a 422 on `coupon_code` saying why it cannot apply. */
  async reserve(manager: EntityManager, request: CouponRequest): Promise<CouponReservation> {
    const discount = await this.discounts.lockByCode(manager, request.storeId, request.code);
    if (!discount) throw reject('unknown');
    const rejection = rejectionOf(discount, request.productId, this.clock.now());
    if (rejection) throw reject(rejection);
    if (discount.singleUse && (await request.holders.isCouponHeldByEmail(manager, discount.id, request.customerEmail))) {
      throw reject('used_by_customer');
    }
    if (!(await this.discounts.incrementUse(manager, discount.id))) throw reject('exhausted');
    return { discountId: discount.id, code: discount.code, discountAmount: discountFor(discount, request.amount) };
  }

  /** Returns the use an order held (its cancellation). */
  release(manager: EntityManager, discountId: number): Promise<void> {
    return this.discounts.releaseUse(manager, discountId);
  }
}

function reject(reason: keyof typeof COUPON_REJECTION_MESSAGES): ValidationError {
  return ValidationError.field('coupon_code', COUPON_REJECTION_MESSAGES[reason]);
}
