import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { NotFoundError } from '../../../common/errors/app-error';
import { DomainEvents } from '../../../common/events/domain-events';
import { Clock, CLOCK } from '../../../common/time';
import { inTransaction } from '../../../database/transaction';
import { orderEvent, OrderTransitionKind } from '../events/order-events';
import type { OrderBumpItem } from './order-bump-item.entity';
import { OrderProcess, OrderTransition } from './order-process';
import { canTransition, OrderStatus } from './order-status';
import { Order } from './order.entity';
import { OrdersRepository } from './orders.repository';

/** What a payment attempt or a cancellation records on the order with its new state. */
export interface TransitionDetails {
  transactionId?: string;
  paymentMethod?: string | null;
  paymentNumber?: string | null;
  /**
   * When the change happens, where it is not the clock's now: a subscription sweep run as of an
   * instant (`subscriptions:sweep --at`) dates the renewal order it cancels, and its event, by it.
   */
  at?: Date;
}

/** One change of `transitionAllLocked`: a locked order, its new state and what the change records. */
export interface LockedChange {
  order: Order;
  to: OrderStatus;
  details?: TransitionDetails;
  bumps?: OrderBumpItem[];
}

const EVENT_OF: Partial<Record<OrderStatus, OrderTransitionKind>> = {
  approved: 'order_approved',
  cancelled: 'order_cancelled',
  refunded: 'order_refund',
};

/**
 * The one place an order changes state. Each change locks the row, checks the table of
 * {@link canTransition}, runs the hooks other modules registered on the {@link OrderProcess}
 * (subscriptions, commissions, coupon uses) and publishes its domain event (`order.approved`, …),
 * all in one transaction: outbox listeners write through it.
 */
@Injectable()
export class OrderTransitionsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly orders: OrdersRepository,
    private readonly process: OrderProcess,
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
   * and has not changed since: a payment's outcome locks the order first anyway. `bumps`: the
   * order's bump items when the caller knows them already (the hooks then read nothing more).
   */
  async transitionLocked(
    manager: EntityManager,
    order: Order,
    to: OrderStatus,
    details: TransitionDetails = {},
    bumps?: OrderBumpItem[],
  ): Promise<Order | null> {
    const [changed] = await this.transitionAllLocked(manager, [{ order, to, details, bumps }]);
    return changed;
  }

  /**
   * `transitionLocked` of several orders in one transaction (the payments of a group commit),
   * one answer per change, in order. Each order goes through the same steps as alone, and each
   * step is taken for every order before the next: every `beforeSave` hook, then one UPDATE for
   * the orders changed alike, then every `afterSave` hook, then the events, published together. So a hook of one
   * order sees another order of the group as it was before the group (OrderTransitionHook).
   */
  async transitionAllLocked(manager: EntityManager, changes: LockedChange[]): Promise<Array<Order | null>> {
    const now = this.clock.now();
    const transitions: Array<OrderTransition | null> = [];
    for (const { order, to, details = {}, bumps } of changes) {
      if (!canTransition(order.status, to)) {
        transitions.push(null);
        continue;
      }
      if (details.transactionId !== undefined) order.transactionId = details.transactionId;
      if (details.paymentMethod !== undefined) order.paymentMethod = details.paymentMethod;
      if (details.paymentNumber !== undefined) order.paymentNumber = details.paymentNumber;
      const from = order.status;
      order.status = to;
      const at = details.at ?? now;
      stamp(order, to, at);
      let bumpItems: Promise<OrderBumpItem[]> | undefined = bumps && Promise.resolve(bumps);
      const transition: OrderTransition = {
        manager,
        order,
        from,
        to,
        at,
        bumps: () => (bumpItems ??= this.orders.bumpItemsOf(order.id, manager)),
      };
      await this.process.beforeSave(transition);
      transitions.push(transition);
    }
    const moving = transitions.filter((t): t is OrderTransition => t !== null);
    await this.orders.saveAll(
      manager,
      moving.map((t) => t.order),
    );
    for (const transition of moving) await this.process.afterSave(transition);
    const events = moving.flatMap(({ order, from, to, at }) => {
      const kind = EVENT_OF[to];
      return kind ? [orderEvent(kind, order, from, at)] : [];
    });
    await this.events.publishAll(events, manager);
    return transitions.map((t) => t?.order ?? null);
  }
}

/** The change's own fields: when the order was approved, cancelled or refunded. */
function stamp(order: Order, to: OrderStatus, now: Date): void {
  if (to === 'approved') order.approvedAt = now;
  else if (to === 'cancelled') order.cancelledAt = now;
  else if (to === 'refunded') order.refundedAt = now;
  else if (to === 'pending') order.cancelledAt = null;
}
