import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { NotFoundError } from '../../../common/errors/app-error';
import { Clock, CLOCK } from '../../../common/time';
import { inTransaction } from '../../../database/transaction';
import { commissionFor } from '../../affiliates/commission';
import { AffiliatesService } from '../../affiliates/affiliates.service';
import { CouponRedemptionService } from '../../discounts/coupon-redemption.service';
import { CatalogReadRepository } from '../catalog-read/catalog-read.repository';
import { CustomersRepository } from '../customers/customers.repository';
import { DomainEvents } from '../../../common/events/domain-events';
import { bumpsTotal } from '../events/order-event-payload';
import { orderEvent, OrderTransitionKind } from '../events/order-events';
import { SubscriptionsService } from '../subscriptions/subscriptions.service';
import { canTransition, OrderStatus } from './order-status';
import { Order } from './order.entity';
import { OrdersRepository } from './orders.repository';

/** What a payment attempt or a cancellation records on the order with its new state. */
export interface TransitionDetails {
  transactionId?: string;
  paymentMethod?: string | null;
  paymentNumber?: string | null;
}

const EVENT_OF: Partial<Record<OrderStatus, OrderTransitionKind>> = {
  approved: 'order_approved',
  cancelled: 'order_cancelled',
  refunded: 'order_refund',
};

/**
 * The one place an order changes state. Each change locks the row, checks the table of
 * {@link canTransition}, applies its side effects (subscription, commission, coupon use) and emits
 * its domain event (`order.approved`, …), all in one transaction: outbox listeners write through it.
 */
@Injectable()
export class OrderTransitionsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly orders: OrdersRepository,
    private readonly catalog: CatalogReadRepository,
    private readonly customers: CustomersRepository,
    private readonly subscriptions: SubscriptionsService,
    private readonly affiliates: AffiliatesService,
    private readonly coupons: CouponRedemptionService,
    private readonly events: DomainEvents,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Moves the order to `to`, or returns null, changing and sending nothing, when the table does not
   * allow it from the order's current state (a second confirmation, a refund of a pending order).
   */
  transition(
    orderId: number,
    to: OrderStatus,
    details: TransitionDetails = {},
    outer?: EntityManager,
  ): Promise<Order | null> {
    return inTransaction(
      this.dataSource,
      async (manager) => {
        const order = await this.orders.lockById(manager, orderId);
        if (!order) throw new NotFoundError();
        return this.transitionLocked(manager, order, to, details);
      },
      outer,
    );
  }

  /**
   * `transition` of an order the caller locked in `manager`'s transaction (`OrdersRepository.lockById`)
   * and has not changed since: a payment's outcome locks the order first anyway.
   */
  async transitionLocked(
    manager: EntityManager,
    order: Order,
    to: OrderStatus,
    details: TransitionDetails = {},
  ): Promise<Order | null> {
    if (!canTransition(order.status, to)) return null;
    const now = this.clock.now();
    if (details.transactionId !== undefined) order.transactionId = details.transactionId;
    if (details.paymentMethod !== undefined) order.paymentMethod = details.paymentMethod;
    if (details.paymentNumber !== undefined) order.paymentNumber = details.paymentNumber;
    const from = order.status;
    order.status = to;
    await this.applySideEffects(manager, order, from, now);
    const saved = await this.orders.save(manager, order);
    // decisions §11: a refund cancels the subscription at once, with its open renewal order;
    // after the order is saved (subscription_cancelled shows it refunded) and before its event
    // (order_refund shows the subscription cancelled).
    if (to === 'refunded' && saved.subscriptionId !== null) {
      await this.subscriptions.end(manager, saved.subscriptionId, 'cancelled', now, (id) =>
        this.transition(id, 'cancelled', {}, manager),
      );
    }
    const kind = EVENT_OF[to];
    if (kind) await this.events.publish(orderEvent(kind, saved, from, now), manager);
    return saved;
  }

  private async applySideEffects(manager: EntityManager, order: Order, from: OrderStatus, now: Date): Promise<void> {
    switch (order.status) {
      case 'approved': {
        order.approvedAt = now;
        if (order.affiliateId !== null) {
          const affiliate = await this.affiliates.find(order.storeId, order.affiliateId, manager);
          order.commissionAmount = affiliate ? commissionFor(order.amount, affiliate.commissionPercent) : null;
        }
        if (order.subscriptionId !== null) {
          // A renewal order (decisions §11): the subscription's next period is paid.
          await this.subscriptions.renew(manager, order);
        } else if (order.planId !== null) {
          const plan = await this.catalog.findPlan(order.planId, manager);
          if (plan) await this.subscriptions.start(manager, order, plan, now);
        }
        return;
      }
      case 'cancelled':
        order.cancelledAt = now;
        if (order.discountId !== null) await this.coupons.release(manager, order.discountId);
        return;
      case 'refunded':
        order.refundedAt = now;
        return;
      case 'pending':
        // A cancelled order reused by `from_order`: its cancellation gave the coupon use back, so it
        // takes one again (or the reuse fails with the coupon's 422), keeping used_count exact.
        if (from === 'cancelled' && order.discountId !== null && order.couponCode !== null) {
          const customer = await this.customers.findById(order.customerId, manager);
          const bumps = await this.orders.bumpItemsOf(order.id, manager);
          await this.coupons.reserve(manager, {
            storeId: order.storeId,
            code: order.couponCode,
            productId: order.productId,
            amount: order.originalAmount - bumpsTotal(bumps),
            customerEmail: customer?.email ?? '',
          });
        }
        order.cancelledAt = null;
        return;
    }
  }
}
