import { Injectable, OnModuleInit } from '@nestjs/common';
import { CatalogReads } from '../../catalog';
import { OrderProcess } from '../orders/order-process';
import { SubscriptionsService } from './subscriptions.service';

/**
 * What an order's transitions do to subscriptions (billing README, `subscriptions/`): an approved plan order starts
 * one, an approved renewal order pays its next period, and a refund cancels the subscription at
 * once with its open renewal order (after the order is saved, so `subscription_cancelled` shows it
 * refunded, and before its event, so `order_refund` shows the subscription cancelled).
 */
@Injectable()
export class SubscriptionOrderHooks implements OnModuleInit {
  constructor(
    private readonly process: OrderProcess,
    private readonly subscriptions: SubscriptionsService,
    private readonly catalog: CatalogReads,
  ) {}

  onModuleInit(): void {
    this.process.register({
      name: 'subscriptions.approved',
      to: ['approved'],
      beforeSave: async ({ manager, order, at }) => {
        if (order.subscriptionId !== null) {
          await this.subscriptions.renew(manager, order);
        } else if (order.planId !== null) {
          const plan = await this.catalog.findPlan(order.planId, manager);
          if (plan) await this.subscriptions.start(manager, order, plan, at);
        }
      },
    });
    this.process.register({
      name: 'subscriptions.refunded',
      to: ['refunded'],
      afterSave: async ({ manager, order, at }) => {
        if (order.subscriptionId !== null) await this.subscriptions.end(manager, order.subscriptionId, 'cancelled', at);
      },
    });
  }
}
