import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { PageRequest } from '../../../common/pagination/pagination';
import { PreparedStatement } from '../../../database/prepared-statements';
import { Order } from '../orders/order.entity';
import { Subscription, SubscriptionStatus } from './subscription.entity';

export interface SubscriptionFilters {
  status?: SubscriptionStatus;
  /** The ids of the plans the `plan` filter names (catalog's `planIdsByRef`). */
  planIds?: number[];
  customerId?: number;
}

/** The method and number of the subscription's last successful payment. */
export interface SavedPaymentMethod {
  method: string;
  paymentNumber: string;
}

/** Subscriptions and the orders of their periods (orders.subscription_id, orders.subscription_period). */
@Injectable()
export class SubscriptionsRepository {
  /** The sweep's questions (below); `endedBy` in one variant per `cancelAtPeriodEnd` filter. */
  private readonly sweep: {
    dueForRenewal: PreparedStatement;
    endedBy: Record<'any' | 'cancelling' | 'renewing', PreparedStatement>;
    withOpenRenewal: PreparedStatement;
  };

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    const endedBy = (flag: string) =>
      new PreparedStatement(
        dataSource,
        `SELECT s.id FROM subscriptions s WHERE s.status = $1 AND s.end_date <= $2${flag} ORDER BY s.end_date, s.id LIMIT $3`,
      );
    this.sweep = {
      dueForRenewal: new PreparedStatement(
        dataSource,
        `SELECT s.id FROM subscriptions s WHERE s.status IN ('active', 'past_due') AND NOT s.cancel_at_period_end AND s.end_date <= $1
           AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.subscription_id = s.id AND o.subscription_period = s.periods + 1)
         ORDER BY s.end_date, s.id LIMIT $2`,
      ),
      endedBy: {
        any: endedBy(''),
        cancelling: endedBy(' AND s.cancel_at_period_end'),
        renewing: endedBy(' AND NOT s.cancel_at_period_end'),
      },
      withOpenRenewal: new PreparedStatement(
        dataSource,
        `SELECT s.id FROM subscriptions s WHERE s.status IN ('active', 'past_due') AND s.renewal_attempts < $1
           AND EXISTS (SELECT 1 FROM orders o WHERE o.subscription_id = s.id AND o.subscription_period = s.periods + 1 AND o.status = 'pending')
         ORDER BY s.end_date, s.id LIMIT $2`,
      ),
    };
  }

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  findById(id: number, manager?: EntityManager): Promise<Subscription | null> {
    return this.m(manager).findOneBy(Subscription, { id });
  }

  findOfStore(storeId: number, id: number): Promise<Subscription | null> {
    return this.m().findOneBy(Subscription, { storeId, id });
  }

  /** The subscription an order started or renews. */
  async findOfOrder(
    order: Pick<Order, 'id' | 'subscriptionId'>,
    manager?: EntityManager,
  ): Promise<Subscription | null> {
    if (order.subscriptionId !== null) return this.findById(order.subscriptionId, manager);
    return this.m(manager).findOneBy(Subscription, { orderId: order.id });
  }

  async findByIds(ids: number[]): Promise<Map<number, Subscription>> {
    if (!ids.length) return new Map();
    const rows = await this.m().findBy(Subscription, { id: In(ids) });
    return new Map(rows.map((s) => [s.id, s]));
  }

  /** The row, locked until the caller's transaction ends. */
  lock(manager: EntityManager, id: number): Promise<Subscription | null> {
    return manager
      .createQueryBuilder(Subscription, 's')
      .setLock('pessimistic_write')
      .where('s.id = :id', { id })
      .getOne();
  }

  save(manager: EntityManager, subscription: Partial<Subscription>): Promise<Subscription> {
    return manager.save(Subscription, manager.create(Subscription, subscription));
  }

  async listOfStore(
    storeId: number,
    filters: SubscriptionFilters,
    page: PageRequest,
  ): Promise<[Subscription[], number]> {
    const qb = this.m().createQueryBuilder(Subscription, 's').where('s.store_id = :storeId', { storeId });
    if (filters.status) qb.andWhere('s.status = :status', { status: filters.status });
    if (filters.customerId !== undefined)
      qb.andWhere('s.customer_id = :customerId', { customerId: filters.customerId });
    if (filters.planIds !== undefined) qb.andWhere('s.plan_id = ANY(:planIds)', { planIds: filters.planIds });
    return qb
      .orderBy('s.created_at', 'DESC')
      .addOrderBy('s.id', 'DESC')
      .skip(page.offset)
      .take(page.perPage)
      .getManyAndCount();
  }

  /** The order numbers of each subscription's periods, first period first. */
  async orderNumbersOf(subscriptionIds: number[]): Promise<Map<number, string[]>> {
    const out = new Map<number, string[]>(subscriptionIds.map((id) => [id, []]));
    if (!subscriptionIds.length) return out;
    const rows = await this.m().find(Order, {
      select: { subscriptionId: true, orderNumber: true, subscriptionPeriod: true },
      where: { subscriptionId: In(subscriptionIds) },
      order: { subscriptionPeriod: 'ASC' },
    });
    for (const row of rows) out.get(row.subscriptionId!)?.push(row.orderNumber);
    return out;
  }

  /** The order of a period of the subscription. */
  orderOfPeriod(manager: EntityManager, subscriptionId: number, period: number): Promise<Order | null> {
    return manager.findOneBy(Order, { subscriptionId, subscriptionPeriod: period });
  }

  /** The renewal order of the next period while it waits for payment. */
  async openRenewal(manager: EntityManager, subscription: Pick<Subscription, 'id' | 'periods'>): Promise<Order | null> {
    const order = await this.orderOfPeriod(manager, subscription.id, subscription.periods + 1);
    return order?.status === 'pending' ? order : null;
  }

  /** The order of the subscription's latest period (the open or last renewal, else the first order). */
  latestOrder(manager: EntityManager, subscriptionId: number): Promise<Order | null> {
    return manager.findOne(Order, { where: { subscriptionId }, order: { subscriptionPeriod: 'DESC' } });
  }

  /** Method and number of the latest paid order that has them: what a renewal may charge again. */
  async savedPaymentMethod(manager: EntityManager, subscriptionId: number): Promise<SavedPaymentMethod | null> {
    const order = await manager
      .createQueryBuilder(Order, 'o')
      .where('o.subscription_id = :subscriptionId', { subscriptionId })
      .andWhere(
        `o.status IN ('approved', 'refunded') AND o.payment_method IS NOT NULL AND o.payment_number IS NOT NULL`,
      )
      .orderBy('o.subscription_period', 'DESC')
      .getOne();
    return order ? { method: order.paymentMethod!, paymentNumber: order.paymentNumber! } : null;
  }

  // The sweep's questions (billing README, `subscriptions/`). Each returns ids only: every step re-reads and locks its
  // subscription in its own transaction and checks again, so a stale answer changes nothing.

  /** Active, renewing subscriptions ending by `before` whose next period has no order yet. */
  dueForRenewal(before: Date, limit: number): Promise<number[]> {
    return this.ids(this.sweep.dueForRenewal, [before, limit]);
  }

  /** Subscriptions of `status` whose end_date is at or before `before`. */
  endedBy(status: SubscriptionStatus, before: Date, limit: number, cancelAtPeriodEnd?: boolean): Promise<number[]> {
    const variant = cancelAtPeriodEnd === undefined ? 'any' : cancelAtPeriodEnd ? 'cancelling' : 'renewing';
    return this.ids(this.sweep.endedBy[variant], [status, before, limit]);
  }

  /** Active or past-due subscriptions with a pending renewal order and fewer than `maxAttempts` attempts. */
  withOpenRenewal(maxAttempts: number, limit: number): Promise<number[]> {
    return this.ids(this.sweep.withOpenRenewal, [maxAttempts, limit]);
  }

  private async ids(statement: PreparedStatement, params: unknown[]): Promise<number[]> {
    const rows = await statement.rows<{ id: number }>(params);
    return rows.map((r) => r.id);
  }
}
