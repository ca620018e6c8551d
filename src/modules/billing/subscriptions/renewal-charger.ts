import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock, CLOCK } from '../../../common/time';
import type { Order } from '../orders/order.entity';
import { OrderTransitionsService } from '../orders/order-transitions.service';
import { OrdersRepository } from '../orders/orders.repository';
import { PAYMENT_GATEWAY, PAYMENT_METHODS, PaymentGateway, PaymentMethod } from '../payments/payment-gateway';
import type { SavedPaymentMethod } from './subscriptions.repository';
import { SubscriptionsService } from './subscriptions.service';

/** `not_pending`: the order had left `pending` meanwhile (paid through its link): nothing applied. */
export type RenewalChargeOutcome = 'approved' | 'declined' | 'pending' | 'not_pending';

/**
 * The automatic charge of a renewal order with the subscription's saved method (decisions §11):
 * the one place the sweep meets a payment gateway. The gateway is called outside any transaction;
 * its outcome is applied in a second one: approved → the order's approval (which renews the
 * subscription); declined → the order stays `pending` and `subscription.payment_failed` is
 * published; pending → the gateway's callback completes it.
 */
@Injectable()
export class RenewalCharger {
  private readonly logger = new Logger(RenewalCharger.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(PAYMENT_GATEWAY) private readonly gateway: PaymentGateway,
    private readonly transitions: OrderTransitionsService,
    private readonly orders: OrdersRepository,
    private readonly subscriptions: SubscriptionsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Whether the saved method can be charged without the customer at the page: a payment number of
   * a phone method (the sandbox and M-Pesa push to it); otherwise the customer pays by the link.
   */
  canCharge(saved: SavedPaymentMethod | null): saved is SavedPaymentMethod & { method: PaymentMethod } {
    return saved !== null && (PAYMENT_METHODS as readonly string[]).includes(saved.method) && saved.paymentNumber !== '';
  }

  async charge(order: Order, saved: SavedPaymentMethod & { method: PaymentMethod }): Promise<RenewalChargeOutcome> {
    const result = await this.gateway.charge({
      orderNumber: order.orderNumber,
      amount: order.amount,
      currency: order.currency,
      paymentMethod: saved.method,
      paymentNumber: saved.paymentNumber,
      renewal: true,
    });
    const details = { transactionId: result.transactionId, paymentMethod: saved.method, paymentNumber: saved.paymentNumber };
    if (result.status === 'pending') return 'pending';
    if (result.status === 'approved') {
      const approved = await this.transitions.transition(order.id, 'approved', details);
      if (!approved) this.logger.warn({ orderNumber: order.orderNumber }, 'Renewal charged after the order left pending');
      return approved ? 'approved' : 'not_pending';
    }
    return this.dataSource.transaction(async (manager) => {
      const current = await this.orders.lockById(manager, order.id);
      if (!current || current.status !== 'pending') return 'not_pending';
      await this.subscriptions.paymentFailed(manager, current, this.clock.now());
      return 'declined';
    });
  }
}
