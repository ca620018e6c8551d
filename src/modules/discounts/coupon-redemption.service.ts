import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ValidationError } from '../../common/errors/app-error';
import { Cents, centsToDecimal, toCents } from '../../common/money';
import { Clock, CLOCK } from '../../common/time';
import { COUPON_REJECTION_MESSAGES } from './coupon-rules';
import { codeKey } from './discount-input';
import { DiscountsRepository } from './discounts.repository';

export interface CouponRequest {
  storeId: number;
  code: string;
  productId: number;
  /** The amount the discount applies to, in cents. */
  amount: Cents;
  customerEmail: string;
}

export interface CouponReservation {
  discountId: number;
  /** The code as the seller wrote it. */
  code: string;
  discountAmount: Cents;
}

/**
 * Applying a coupon to an existing order (README, *Choices where the contract is silent*): a cancelled order reused by `from_order`
 * takes its use again. New orders take theirs in the statement that creates them
 * (`OrdersRepository.insertCheckout`), under the same rules (coupon-rules.ts). Both methods run
 * inside the caller's transaction, so a reserved use commits or rolls back with the order.
 */
@Injectable()
export class CouponRedemptionService {
  constructor(
    private readonly discounts: DiscountsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Reserves one use of the coupon, or throws a 422 on `coupon_code` saying why it cannot apply. */
  async reserve(manager: EntityManager, request: CouponRequest): Promise<CouponReservation> {
    const reserved = await this.discounts.reserveUse(manager, {
      storeId: request.storeId,
      codeKey: codeKey(request.code),
      productId: request.productId,
      amount: centsToDecimal(request.amount),
      email: request.customerEmail.trim().toLowerCase(),
      now: this.clock.now(),
    });
    if (reserved.rejection) throw ValidationError.field('coupon_code', COUPON_REJECTION_MESSAGES[reserved.rejection]);
    return { discountId: reserved.id, code: reserved.code, discountAmount: toCents(reserved.discount) };
  }

  /** Returns the use an order held (its cancellation). */
  release(manager: EntityManager, discountId: number): Promise<void> {
    return this.discounts.releaseUse(manager, discountId);
  }
}
