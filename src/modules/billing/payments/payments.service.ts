import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { IncomingHttpHeaders } from 'node:http';
import { DataSource } from 'typeorm';
import { sha256Hex } from '../../../common/crypto';
import { NotFoundError, UnauthorizedError, ValidationError } from '../../../common/errors/app-error';
import { Clock, CLOCK } from '../../../common/time';
import { CatalogReadRepository } from '../catalog-read/catalog-read.repository';
import { bumpsTotal } from '../events/order-event-payload';
import { Order } from '../orders/order.entity';
import { OrderTransitionsService } from '../orders/order-transitions.service';
import { OrdersRepository } from '../orders/orders.repository';
import { SubscriptionsService } from '../subscriptions/subscriptions.service';
import { PAYMENT_GATEWAY, PaymentGateway, PaymentMethod } from './payment-gateway';

export interface PaymentAttempt {
  paymentMethod: PaymentMethod;
  paymentNumber: string;
  /** Ids of the product's order bumps the customer accepted. */
  bumpIds: number[];
}

/** `not_pending`: the order had already left `pending`; nothing was charged, changed or sent. */
export type PaymentOutcome = 'approved' | 'declined' | 'pending' | 'cancelled' | 'not_pending';

export interface PaymentResult {
  outcome: PaymentOutcome;
  order: Order;
}

/** Charging and cancelling checkouts through the configured {@link PaymentGateway}. */
@Injectable()
export class PaymentsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly orders: OrdersRepository,
    private readonly catalog: CatalogReadRepository,
    private readonly transitions: OrderTransitionsService,
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
    private readonly subscriptions: SubscriptionsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * The order a checkout link opens, or the 404 of an unknown (or replaced) pay_token. The checkout
   * of a product the seller deleted is gone too: nothing is charged or cancelled for it.
   */
  async orderOfToken(payToken: string): Promise<Order> {
    const order = await this.orders.findByPayTokenHash(sha256Hex(payToken));
    if (!order || !(await this.catalog.findProduct(order.productId))) throw new NotFoundError();
    return order;
  }

  /**
   * One payment attempt. The order row stays locked from the status check to the new state, so two
   * simultaneous confirmations charge once and send one event; the second sees `not_pending`.
   */
  async pay(payToken: string, attempt: PaymentAttempt): Promise<PaymentResult> {
    const found = await this.orderOfToken(payToken);
    return this.dataSource.transaction(async (manager) => {
      const order = (await this.orders.lockById(manager, found.id))!;
      if (order.status !== 'pending') return { outcome: 'not_pending', order };

      // Bumps are chosen again on every attempt; the order's own amount is what is left without them.
      const offered = await this.catalog.findBumpsOffered(order.storeId, order.productId, manager);
      const chosen = [...new Set(attempt.bumpIds)];
      const unknown = chosen.filter((id) => !offered.some((o) => o.bump.id === id));
      if (unknown.length) throw ValidationError.field('bumps', 'Unknown order bump.');
      const previous = await this.orders.bumpItemsOf(order.id, manager);
      const items = offered
        .filter((o) => chosen.includes(o.bump.id))
        .map((o) => ({ productId: o.product.id, productPid: o.product.pid, name: o.product.name, price: o.bump.price }));
      // Nothing chosen now or before: nothing to replace (the common case, one statement fewer).
      if (previous.length || items.length) await this.orders.replaceBumpItems(manager, order.id, items);
      order.originalAmount = order.originalAmount - bumpsTotal(previous) + bumpsTotal(items);
      order.amount = order.originalAmount - order.discountAmount;
      await this.orders.save(manager, order);

      const charge = await this.gateway.charge({
        orderNumber: order.orderNumber,
        amount: order.amount,
        currency: order.currency,
        paymentMethod: attempt.paymentMethod,
        paymentNumber: attempt.paymentNumber,
      });
      const details = { transactionId: charge.transactionId, paymentMethod: attempt.paymentMethod, paymentNumber: attempt.paymentNumber };
      if (charge.status === 'pending') {
        Object.assign(order, details);
        return { outcome: 'pending', order: await this.orders.save(manager, order) };
      }
      if (charge.status === 'declined' && order.subscriptionId !== null) {
        // decisions §11: a declined renewal stays pending (payable by its link, retried by dunning).
        await this.subscriptions.paymentFailed(manager, order, this.clock.now());
        return { outcome: 'declined', order };
      }
      const to = charge.status === 'approved' ? 'approved' : 'cancelled';
      const changed = await this.transitions.transition(order.id, to, details, manager);
      return { outcome: charge.status, order: changed! };
    });
  }

  /** The customer's cancel button: pending → cancelled with a transaction id of its own. */
  async cancel(payToken: string): Promise<PaymentResult> {
    const found = await this.orderOfToken(payToken);
    const changed = await this.transitions.transition(found.id, 'cancelled', {
      transactionId: this.gateway.cancellationTransactionId(),
    });
    if (!changed) return { outcome: 'not_pending', order: (await this.orders.findByOrderNumber(found.orderNumber))! };
    return { outcome: 'cancelled', order: changed };
  }

  /** `POST /v1/payments/{provider}/callback`: a gateway's signed confirmation of a pending charge. */
  async handleCallback(provider: string, rawBody: Buffer | undefined, headers: IncomingHttpHeaders): Promise<Order> {
    if (provider !== this.gateway.provider) throw new NotFoundError();
    const notification = rawBody ? this.gateway.verifyCallback(rawBody, headers) : null;
    if (!notification) throw new UnauthorizedError('Invalid signature.');
    const order = await this.orders.findByOrderNumber(notification.orderNumber);
    if (!order) throw new NotFoundError('Order not found.');
    if (notification.status === 'declined' && order.subscriptionId !== null) {
      // decisions §11: a declined renewal stays pending.
      if (order.status === 'pending') await this.dataSource.transaction((m) => this.subscriptions.paymentFailed(m, order, this.clock.now()));
      return order;
    }
    const to = notification.status === 'approved' ? 'approved' : 'cancelled';
    // Gateways repeat callbacks: one for an order that already left pending changes nothing.
    const changed = await this.transitions.transition(order.id, to, { transactionId: notification.transactionId });
    return changed ?? (await this.orders.findByOrderNumber(notification.orderNumber))!;
  }
}
