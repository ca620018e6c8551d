import { Injectable } from '@nestjs/common';
import { CatalogReads, type Plan } from '../../catalog';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { NotFoundError } from '../../../common/errors/app-error';
import { DomainEvents } from '../../../common/events/domain-events';
import { PageRequest } from '../../../common/pagination/pagination';
import { CustomersRepository } from '../customers/customers.repository';
import type { Order } from '../orders/order.entity';
import { OrderTransitionsService } from '../orders/order-transitions.service';
import { newCancellationId } from '../payments/cancellation-id';
import { LicensesService } from '../licenses/licenses.service';
import { OrdersRepository } from '../orders/orders.repository';
import { PaymentAttemptsRepository } from '../payments/payment-attempts.repository';
import { SUBSCRIPTION_EVENTS, subscriptionEvent, SubscriptionEventType } from './subscription-events';
import { Subscription } from './subscription.entity';
import { periodEnd } from './subscription-period';
import { SubscriptionView } from './subscription.mapper';
import { SubscriptionFilters, SubscriptionsRepository } from './subscriptions.repository';

export const isEnded = (s: Pick<Subscription, 'status'>): boolean => s.status === 'cancelled' || s.status === 'expired';

/**
 * The subscription's own state changes (README, *Taking payments*; billing README, `subscriptions/`), each in the caller's transaction with
 * its domain event. Lock order, everywhere: the open renewal order first, then the subscription —
 * the order in which an approval of that order locks them — so the two never deadlock.
 */
@Injectable()
export class SubscriptionsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly orders: OrdersRepository,
    private readonly events: DomainEvents,
    private readonly catalog: CatalogReads,
    private readonly customers: CustomersRepository,
    private readonly transitions: OrderTransitionsService,
    private readonly licenses: LicensesService,
    private readonly attempts: PaymentAttemptsRepository,
  ) {}

  /** `GET /v1/subscriptions`: the store's subscriptions, newest first. */
  async list(
    storeId: number,
    filters: Omit<SubscriptionFilters, 'planIds'> & { plan?: string },
    page: PageRequest,
  ): Promise<[SubscriptionView[], number]> {
    const { plan, ...rest } = filters;
    const planIds = plan === undefined ? undefined : await this.catalog.planIdsByRef(storeId, plan);
    const [rows, total] = await this.subscriptions.listOfStore(storeId, { ...rest, planIds }, page);
    return [await this.views(rows), total];
  }

  /** `GET /v1/subscriptions/{id}`: another store's id is a 404 like a missing one. */
  async get(storeId: number, id: number): Promise<SubscriptionView> {
    const subscription = await this.subscriptions.findOfStore(storeId, id);
    if (!subscription) throw new NotFoundError();
    return (await this.views([subscription]))[0];
  }

  async views(rows: Subscription[]): Promise<SubscriptionView[]> {
    const [plans, customers, orders] = await Promise.all([
      this.catalog.findPlans(rows.map((s) => s.planId)),
      this.customers.findByIds(rows.map((s) => s.customerId)),
      this.subscriptions.orderNumbersOf(rows.map((s) => s.id)),
    ]);
    return rows.map((subscription) => ({
      subscription,
      plan: plans.get(subscription.planId) ?? null,
      customer: customers.get(subscription.customerId) ?? null,
      orders: orders.get(subscription.id) ?? [],
    }));
  }

  /** The pending renewal order of the subscription, if one is open. */
  openRenewal(subscription: Subscription): Promise<Order | null> {
    return this.subscriptions.openRenewal(this.dataSource.manager, subscription);
  }

  /**
   * Starts the subscription of a just-approved order: now until one plan interval later. Links the
   * order as its first period (the caller saves the order).
   */
  async start(manager: EntityManager, order: Order, plan: Plan, now: Date): Promise<Subscription> {
    const subscription = await this.subscriptions.save(manager, {
      storeId: order.storeId,
      orderId: order.id,
      planId: plan.id,
      customerId: order.customerId,
      status: 'active',
      startDate: now,
      endDate: periodEnd(now, plan.interval, plan.intervalCount, 1),
      cancelledAt: null,
      cancelAtPeriodEnd: false,
      interval: plan.interval,
      intervalCount: plan.intervalCount,
      periods: 1,
      renewalAttempts: 0,
    });
    order.subscriptionId = subscription.id;
    order.subscriptionPeriod = 1;
    return subscription;
  }

  /**
   * The approval of a renewal order (billing README, `subscriptions/`): the next period is paid, `end_date` moves one
   * interval on (counted from the start), status `active`. The caller holds the order's lock.
   */
  async renew(manager: EntityManager, order: Order): Promise<Subscription | null> {
    const subscription = await this.subscriptions.lock(manager, order.subscriptionId!);
    if (!subscription || order.subscriptionPeriod !== subscription.periods + 1) return subscription;
    subscription.periods += 1;
    subscription.endDate = periodEnd(
      subscription.startDate,
      subscription.interval,
      subscription.intervalCount,
      subscription.periods,
    );
    subscription.status = 'active';
    subscription.renewalAttempts = 0;
    return this.subscriptions.save(manager, subscription);
  }

  /**
   * Ends the subscription now as `to` (`cancelled`: API, portal, refund; `expired`: the sweep),
   * cancelling its open renewal order, and publishes `subscription.<to>` with its latest order.
   * `stillDue` re-checks the sweep's condition under the lock; with `waitForPayment` a renewal whose
   * payment is still to be answered keeps it as it is. Null when nothing changed (already ended, no
   * longer due, or a payment to wait for).
   */
  async end(
    manager: EntityManager,
    subscriptionId: number,
    to: 'cancelled' | 'expired',
    now: Date,
    stillDue: (s: Subscription) => boolean = () => true,
    waitForPayment = false,
  ): Promise<Subscription | null> {
    const subscription = await this.lockWithOpenRenewal(manager, subscriptionId);
    if (!subscription || isEnded(subscription) || !stillDue(subscription)) return null;
    const open = await this.subscriptions.openRenewal(manager, subscription);
    // The sweep does not cancel a renewal whose payment is still to be answered (an M-Pesa prompt
    // on the customer's phone): the customer could pay a cancelled order. A later sweep decides.
    if (waitForPayment && open && (await this.attempts.isPaying(open.id, manager))) return null;
    const from = subscription.status;
    subscription.status = to;
    if (to === 'cancelled' && now < subscription.endDate) {
      // Cancelled before its period ran out (at once, or a refund): it did not wait for the
      // period's end, whatever an earlier request asked, and this request is its cancellation.
      subscription.cancelAtPeriodEnd = false;
      subscription.cancelledAt = now;
    } else if (to === 'cancelled') subscription.cancelledAt ??= now;
    const saved = await this.subscriptions.save(manager, subscription);
    // After the subscription's change: the renewal's `order_cancelled` shows it as it ended.
    if (open) await this.cancelRenewal(manager, open, now);
    // the subscription's license keys end with it.
    await this.licenses.onSubscriptionEnded(manager, saved.id, now);
    await this.publishWithLatest(
      manager,
      to === 'cancelled' ? SUBSCRIPTION_EVENTS.cancelled : SUBSCRIPTION_EVENTS.expired,
      saved,
      from,
      now,
    );
    return saved;
  }

  /**
   * Cancel at period end (billing README, `subscriptions/`): `cancelled_at` now, status `active` until `end_date`, when
   * the sweep makes it `cancelled`. The open renewal order, if any, is cancelled now: the customer
   * is not asked to pay for a period that will not come. Null when the subscription already ended.
   */
  async cancelAtPeriodEnd(manager: EntityManager, subscriptionId: number, now: Date): Promise<Subscription | null> {
    const subscription = await this.lockWithOpenRenewal(manager, subscriptionId);
    if (!subscription || isEnded(subscription)) return null;
    if (subscription.cancelAtPeriodEnd) return subscription;
    const open = await this.subscriptions.openRenewal(manager, subscription);
    subscription.cancelAtPeriodEnd = true;
    subscription.cancelledAt = now;
    const saved = await this.subscriptions.save(manager, subscription);
    if (open) await this.cancelRenewal(manager, open, now);
    return saved;
  }

  /**
   * An open renewal order cancelled with its subscription: like a checkout's cancellation, it gets a
   * transaction id of its own, so its `order_cancelled` and the subscription's events carry one and
   * their `portal_url` opens the order (billing README, `subscriptions/`). One it already has (a
   * declined attempt's) it keeps: the links to its portal already given out go on opening it.
   */
  private async cancelRenewal(manager: EntityManager, open: Order, at: Date): Promise<void> {
    const transactionId = open.transactionId ?? newCancellationId();
    await this.transitions.transition(open.id, 'cancelled', { transactionId, at }, manager);
  }

  /** The sweep: an active subscription whose end_date passed unpaid becomes `past_due`. */
  async markPastDue(manager: EntityManager, subscriptionId: number, at: Date): Promise<Subscription | null> {
    const subscription = await this.lockWithOpenRenewal(manager, subscriptionId);
    if (
      !subscription ||
      subscription.status !== 'active' ||
      subscription.cancelAtPeriodEnd ||
      subscription.endDate > at
    )
      return null;
    subscription.status = 'past_due';
    const saved = await this.subscriptions.save(manager, subscription);
    const open = await this.subscriptions.openRenewal(manager, saved);
    const order = open ?? (await this.subscriptions.latestOrder(manager, saved.id));
    await this.events.publish(subscriptionEvent(SUBSCRIPTION_EVENTS.pastDue, saved, 'active', order!, at), manager);
    return saved;
  }

  /** An automatic attempt on a renewal order failed: the order stays pending (billing README, `subscriptions/`). */
  async paymentFailed(manager: EntityManager, order: Order, now: Date): Promise<void> {
    const subscription = await this.subscriptions.findById(order.subscriptionId!, manager);
    if (!subscription) return;
    await this.events.publish(
      subscriptionEvent(SUBSCRIPTION_EVENTS.paymentFailed, subscription, subscription.status, order, now),
      manager,
    );
  }

  /** Publishes `type` for the subscription with its latest order as `refs.orderId`. */
  async publishWithLatest(
    manager: EntityManager,
    type: SubscriptionEventType,
    subscription: Subscription,
    from: string,
    now: Date,
  ): Promise<void> {
    const order = await this.subscriptions.latestOrder(manager, subscription.id);
    if (!order) throw new Error(`Subscription ${subscription.id} has no order`);
    await this.events.publish(subscriptionEvent(type, subscription, from, order, now), manager);
  }

  /** Locks the pending renewal order (if any) and then the subscription: see the class comment. */
  private async lockWithOpenRenewal(manager: EntityManager, subscriptionId: number): Promise<Subscription | null> {
    const current = await this.subscriptions.findById(subscriptionId, manager);
    if (!current) return null;
    const open = await this.subscriptions.openRenewal(manager, current);
    if (open) await this.orders.lockById(manager, open.id);
    return this.subscriptions.lock(manager, subscriptionId);
  }

  findOfOrder(order: Pick<Order, 'id' | 'subscriptionId'>, manager?: EntityManager): Promise<Subscription | null> {
    return this.subscriptions.findOfOrder(order, manager);
  }

  findByIds(ids: number[]): Promise<Map<number, Subscription>> {
    return this.subscriptions.findByIds(ids);
  }
}
