import { Injectable, OnModuleInit } from '@nestjs/common';
import { OrderProcess } from '../billing';
import { CouponRedemptionService } from './coupon-redemption.service';

/** A cancelled order gives its coupon use back (a reuse by `from_order` takes one again). */
@Injectable()
export class CouponReleaseHook implements OnModuleInit {
  constructor(
    private readonly process: OrderProcess,
    private readonly coupons: CouponRedemptionService,
  ) {}

  onModuleInit(): void {
    this.process.register({
      name: 'discounts.release-use',
      to: ['cancelled'],
      beforeSave: async ({ manager, order }) => {
        if (order.discountId !== null) await this.coupons.release(manager, order.discountId);
      },
    });
  }
}
