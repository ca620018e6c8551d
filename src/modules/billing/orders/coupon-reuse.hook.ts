import { Injectable, OnModuleInit } from '@nestjs/common';
import { CouponRedemptionService } from '../../discounts';
import { CustomersRepository } from '../customers/customers.repository';
import { bumpsTotal } from '../events/order-event-payload';
import { OrderProcess } from './order-process';
import { OrdersRepository } from './orders.repository';

/**
 * A cancelled order reopened (`from_order`, or "try again" at the checkout): its cancellation gave
 * the coupon use back (discounts' hook), so it takes one again, or the reopening fails with the
 * coupon's 422, keeping `used_count` exact.
 */
@Injectable()
export class CouponReuseHook implements OnModuleInit {
  constructor(
    private readonly process: OrderProcess,
    private readonly coupons: CouponRedemptionService,
    private readonly customers: CustomersRepository,
    private readonly orders: OrdersRepository,
  ) {}

  onModuleInit(): void {
    this.process.register({
      name: 'billing.coupon-reuse',
      to: ['pending'],
      from: ['cancelled'],
      beforeSave: async ({ manager, order, bumps: bumpItems }) => {
        if (order.discountId === null || order.couponCode === null) return;
        const customer = await this.customers.findById(order.customerId, manager);
        const bumps = await bumpItems();
        await this.coupons.reserve(manager, {
          storeId: order.storeId,
          code: order.couponCode,
          productId: order.productId,
          amount: order.originalAmount - bumpsTotal(bumps),
          heldByCustomer: (discountId, tx) =>
            this.orders.customerHoldsCoupon(order.storeId, customer?.email ?? '', discountId, tx, order.id),
        });
      },
    });
  }
}
