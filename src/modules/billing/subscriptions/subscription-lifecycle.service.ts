import { Inject, Injectable } from '@nestjs/common';
import { CatalogReads } from '../../catalog';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DomainEvents } from '../../../common/events/domain-events';
import { ConflictError, NotFoundError } from '../../../common/errors/app-error';
import { Clock, CLOCK } from '../../../common/time';
import type { Order } from '../orders/order.entity';
import { OrdersRepository } from '../orders/orders.repository';
import { newPayToken } from '../orders/orders.service';
import { OrderFactory } from '../orders/order-factory';
import { RenewalCharger } from './renewal-charger';
import { PaymentAttemptsRepository } from '../payments/payment-attempts.repository';
import { SUBSCRIPTION_EVENTS, subscriptionEvent } from './subscription-events';
import { Subscription } from './subscription.entity';
import { SavedPaymentMethod, SubscriptionsRepository } from './subscriptions.repository';
import { isEnded, SubscriptionsService } from './subscriptions.service';

/** A claimed automatic attempt: the order to charge and the method to charge it with. */
export interface ClaimedAttempt {
  order: Order;
  saved: SavedPaymentMethod;
  attempt: number;
}

/**
 * What changes a subscription from outside an order's approval or refund: the customer's or
 * seller's cancel, and each step of the sweep (billing README, `subscriptions/`). Every method is one short
 * transaction that locks, re-checks and changes; run again, it changes nothing more.
 */
@Injectable()
export class SubscriptionLifecycle {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly service: SubscriptionsService,
    private readonly orders: OrdersRepository,
    private readonly factory: OrderFactory,
    private readonly catalog: CatalogReads,
    private readonly events: DomainEvents,
    private readonly charger: RenewalCharger,
    private readonly attempts: PaymentAttemptsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * `POST /v1/subscriptions/{id}/cancel` and the portal's button. At period end (the default) the
   * status stays `active` until `end_date`; at once it becomes `cancelled` now. A `past_due`
   * subscription has no period left to run: it is cancelled at once either way.
   */
  async cancel(storeId: number, subscriptionId: number, atPeriodEnd: boolean): Promise<Subscription> {
    const now = this.clock.now();
    return this.dataSource.transaction(async (manager) => {
      const current = await this.subscriptions.findById(subscriptionId, manager);
      if (!current || current.storeId !== storeId) throw new NotFoundError();
      const changed =
        atPeriodEnd && current.status === 'active'
          ? await this.service.cancelAtPeriodEnd(manager, subscriptionId, now)
          : await this.service.end(manager, subscriptionId, 'cancelled', now);
      if (!changed) throw new ConflictError('Subscription has already ended.');
      return changed;
    });
  }

  /**
   * Step 1: the renewal order of the next period, for the subscription's customer and plan at the
   * plan's current price, no coupon, with its own order number and pay token (billing README, `subscriptions/`). The
   * order's unique (subscription_id, subscription_period) makes a second one impossible even without
   * the lock. `subscription.renewal_due` (the email with the checkout link) only when the saved
   * method cannot be charged without the customer (`RenewalCharger.canCharge`, as step 5 decides):
   * otherwise the automatic attempt starts at once, and only its failure sends the link (`payment_failed`).
   * The order is dated `at`, the sweep's instant (also a catch-up's `--at`); its payment attempts,
   * events and state changes keep the clock's time, as payments and reconciliation go by it.
   */
  async createRenewal(subscriptionId: number, before: Date, at: Date): Promise<Order | null> {
    const now = this.clock.now();
    return this.dataSource.transaction(async (manager) => {
      const subscription = await this.subscriptions.lock(manager, subscriptionId);
      if (
        !subscription ||
        // past_due without a renewal of the next period: a sweep that ran late let it lapse
        // before renewing it (SubscriptionSweep's catch-up); it is renewed now.
        isEnded(subscription) ||
        subscription.cancelAtPeriodEnd ||
        subscription.endDate > before
      )
        return null;
      const period = subscription.periods + 1;
      if (await this.subscriptions.orderOfPeriod(manager, subscription.id, period)) return null;
      const [plan, first] = await Promise.all([
        this.catalog.findPlan(subscription.planId, manager),
        this.subscriptions.orderOfPeriod(manager, subscription.id, 1),
      ]);
      // A deleted plan (possible only without sales) leaves nothing to renew.
      if (!plan || !first) return null;
      const order = await this.factory.renewal(manager, subscription, plan, first, period, newPayToken(), at);
      const saved = await this.subscriptions.savedPaymentMethod(manager, subscription.id);
      if (!(await this.charger.canCharge(saved, subscription.storeId, manager))) {
        await this.events.publish(
          subscriptionEvent(SUBSCRIPTION_EVENTS.renewalDue, subscription, subscription.status, order, now),
          manager,
        );
      }
      return order;
    });
  }

  /** Step 2: unpaid at `end_date` → `past_due` (+`subscription.past_due`). */
  markPastDue(subscriptionId: number, at: Date): Promise<Subscription | null> {
    return this.dataSource.transaction((manager) => this.service.markPastDue(manager, subscriptionId, at));
  }

  /**
   * Step 3: still `past_due` `graceDays` after `end_date` → `expired`, its renewal order cancelled;
   * not while that order's payment is still to be answered.
   */
  expire(subscriptionId: number, at: Date, graceMs: number): Promise<Subscription | null> {
    return this.dataSource.transaction((manager) =>
      this.service.end(
        manager,
        subscriptionId,
        'expired',
        at,
        (s) => s.status === 'past_due' && s.endDate.getTime() + graceMs <= at.getTime(),
        true,
      ),
    );
  }

  /** Step 4: cancelled at period end and `end_date` has come → `cancelled`. */
  endAtPeriodEnd(subscriptionId: number, at: Date): Promise<Subscription | null> {
    return this.dataSource.transaction((manager) =>
      this.service.end(
        manager,
        subscriptionId,
        'cancelled',
        at,
        (s) => s.status === 'active' && s.cancelAtPeriodEnd && s.endDate <= at,
      ),
    );
  }

  /**
   * Step 5: claims automatic attempt number `attempt` on the open renewal order, in a transaction
   * of its own that commits before the gateway is called. A claim is never made twice, so a sweep
   * that dies after it skips that attempt rather than charge twice. Null when not due or not
   * chargeable (`RenewalCharger.canCharge` decides from the saved method).
   */
  async claimAttempt(subscriptionId: number, dueAttempts: (s: Subscription) => number): Promise<ClaimedAttempt | null> {
    return this.dataSource.transaction(async (manager) => {
      const subscription = await this.subscriptions.lock(manager, subscriptionId);
      if (!subscription || isEnded(subscription)) return null;
      const attempt = dueAttempts(subscription);
      if (subscription.renewalAttempts >= attempt) return null;
      const order = await this.subscriptions.openRenewal(manager, subscription);
      // No second charge while one is still to be answered: a later sweep makes it, if still due.
      if (!order || (await this.attempts.isPaying(order.id, manager))) return null;
      const saved = await this.subscriptions.savedPaymentMethod(manager, subscription.id);
      if (!(await this.charger.canCharge(saved, subscription.storeId, manager))) return null;
      subscription.renewalAttempts = attempt;
      await this.subscriptions.save(manager, subscription);
      return { order, saved: saved!, attempt };
    });
  }
}
