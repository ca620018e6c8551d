import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { Plan } from '../../catalog/plans/plan.entity';
import type { Order } from '../orders/order.entity';
import { Subscription } from './subscription.entity';
import { addInterval } from './subscription-period';
import { SubscriptionsRepository } from './subscriptions.repository';

/** Subscriptions started by approved orders with a plan (decisions §8). */
@Injectable()
export class SubscriptionsService {
  constructor(private readonly subscriptions: SubscriptionsRepository) {}

  /** Starts the subscription of a just-approved order: now until one plan interval later. */
  start(manager: EntityManager, order: Order, plan: Plan, now: Date): Promise<Subscription> {
    return this.subscriptions.save(manager, {
      storeId: order.storeId,
      orderId: order.id,
      planId: plan.id,
      customerId: order.customerId,
      status: 'active',
      startDate: now,
      endDate: addInterval(now, plan.interval, plan.intervalCount),
      cancelledAt: null,
    });
  }

  /** Ends an order's active subscription (customer's cancel button, or a refund); idempotent. */
  async cancel(manager: EntityManager, orderId: number, now: Date): Promise<Subscription | null> {
    const subscription = await this.subscriptions.lockOfOrder(manager, orderId);
    if (!subscription || subscription.status === 'cancelled') return subscription;
    subscription.status = 'cancelled';
    subscription.cancelledAt = now;
    return this.subscriptions.save(manager, subscription);
  }

  findOfOrder(orderId: number, manager?: EntityManager): Promise<Subscription | null> {
    return this.subscriptions.findOfOrder(orderId, manager);
  }

  findOfOrders(orderIds: number[]): Promise<Map<number, Subscription>> {
    return this.subscriptions.findOfOrders(orderIds);
  }
}
