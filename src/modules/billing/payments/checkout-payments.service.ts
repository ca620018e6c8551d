import { Inject, Injectable } from '@nestjs/common';
import { CatalogReads, type Product } from '../../catalog';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sha256Hex } from '../../../common/crypto';
import { newCancellationId } from './cancellation-id';
import { InProgressError, NotFoundError } from '../../../common/errors/app-error';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { isRenewalOrder, Order } from '../orders/order.entity';
import { OrderTransitionsService } from '../orders/order-transitions.service';
import { OrdersRepository } from '../orders/orders.repository';
import { PaymentAttempt, transactionIdOf } from './payment-attempt.entity';
import { PaymentAttemptsRepository } from './payment-attempts.repository';
import { ChargeRequest } from './payment-gateway';
import { PaymentGatewayRegistry, PaymentMode } from './payment-gateway.registry';
import { PAY_WAIT_MS, PayRequest, PaymentResult, PaymentsService } from './payments.service';

/** The payment number of a gateway without a rule of its own: a phone number, `+` allowed. */
const PHONE_NUMBER = /^\+?\d{8,15}$/;
const PHONE_NUMBER_MESSAGE = 'payment_number must be a phone number of 8 to 15 digits.';

/**
 * What the hosted checkout asks of payments, by pay link: the methods offered and whether money
 * moves, the order of a link, whether a number will do, where the order stands (declined, the
 * newest attempt), and the customer's buttons (pay, cancel, try again). Paying hands the attempt to
 * {@link PaymentsService}, the attempt engine.
 */
@Injectable()
export class CheckoutPaymentsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly orders: OrdersRepository,
    private readonly catalog: CatalogReads,
    private readonly transitions: OrderTransitionsService,
    private readonly attempts: PaymentAttemptsRepository,
    private readonly registry: PaymentGatewayRegistry,
    private readonly payments: PaymentsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Which gateways may take the payments of an order's store (README, *Test mode*). */
  modeOf(order: Pick<Order, 'storeId'>): Promise<PaymentMode> {
    return this.payments.modeOf(order.storeId);
  }

  /** The methods the checkout offers in `mode`, and whether each needs the customer's number. */
  offeredMethods(mode: PaymentMode = 'live'): Array<{ method: string; needsPaymentNumber: boolean }> {
    return this.registry
      .methods(mode)
      .map((method) => ({ method, needsPaymentNumber: this.registry.forMethod(method, mode)!.needsPaymentNumber }));
  }

  /** True while a test gateway takes payments: the checkout shows "Test payment: no money moves". */
  isTestMode(mode: PaymentMode = 'live'): boolean {
    return this.registry.hasFallback(mode);
  }

  /**
   * The order a checkout link opens, or the 404 of an unknown (or replaced) pay_token. The checkout
   * of a product or plan the seller deleted is gone too: nothing is charged or cancelled for it (a
   * subscription could not start without its plan).
   */
  async orderOfToken(payToken: string): Promise<Order> {
    return (await this.checkoutOf(payToken)).order;
  }

  /** `orderOfToken`, with the product it sells (a payment names it to the gateway). */
  async checkoutOf(payToken: string): Promise<{ order: Order; product: Product }> {
    const order = await this.orders.findByPayTokenHash(sha256Hex(payToken));
    const [product, plan] = order
      ? await Promise.all([
          this.catalog.findProduct(order.productId),
          order.planId === null ? true : this.catalog.findPlan(order.planId),
        ])
      : [null, null];
    if (!order || !product || !plan) throw new NotFoundError();
    return { order, product };
  }

  /**
   * The 422 message of a payment number `method`'s gateway cannot charge (null: it can). `null` is a
   * number missing or not text. A gateway with a rule of its own (`validatePaymentNumber`: M-Pesa
   * numbers, a plugin's voucher codes) decides alone; for the others, and for an unknown method, the
   * number is a phone number of 8 to 15 digits.
   */
  paymentNumberError(method: string | null, paymentNumber: string | null, mode: PaymentMode = 'live'): string | null {
    const rule = method === null ? undefined : this.registry.forMethod(method, mode)?.validatePaymentNumber;
    if (rule) return rule(paymentNumber ?? '');
    return paymentNumber !== null && PHONE_NUMBER.test(paymentNumber) ? null : PHONE_NUMBER_MESSAGE;
  }

  /**
   * `POST {pay_url}/token/{pay_token}/pay`: the attempt engine's payment of the link's order; the
   * answer comes within `waitMs` (`waiting` past that).
   */
  async pay(
    payToken: string | { order: Order; product: Product },
    request: PayRequest,
    returnUrls: ChargeRequest['returnUrls'],
    waitMs = PAY_WAIT_MS,
  ): Promise<PaymentResult> {
    const found = typeof payToken === 'string' ? await this.checkoutOf(payToken) : payToken;
    return this.payments.pay(found, request, returnUrls, waitMs);
  }

  /** The customer's cancel button: pending → cancelled with a transaction id of its own. */
  async cancel(payToken: string): Promise<PaymentResult> {
    const found = await this.orderOfToken(payToken);
    const mode = await this.modeOf(found);
    return this.dataSource.transaction(async (manager) => {
      const order = (await this.orders.lockById(manager, found.id))!;
      if (order.status !== 'pending') return { outcome: 'not_pending', order };
      // Cancelling while the customer may be confirming would leave a payment without its order.
      if (await this.attempts.findProcessingOfOrder(order.id, manager))
        throw new InProgressError('A payment is already in progress.');
      const gateway =
        mode === 'test'
          ? this.registry.forProvider('sandbox', 'test')
          : this.registry.all().find((g) => g.cancellationTransactionId);
      const transactionId = gateway?.cancellationTransactionId?.() ?? newCancellationId();
      const changed = await this.transitions.transition(order.id, 'cancelled', { transactionId }, manager);
      return { outcome: 'cancelled', order: changed! };
    });
  }

  /**
   * True when the order ended cancelled because its newest payment attempt was declined (not the
   * customer's cancel button, which gives the order a transaction id of its own). A renewal order
   * is never cancelled by a decline (it stays pending), only with its subscription's end.
   */
  async wasDeclined(order: Order): Promise<boolean> {
    if (order.status !== 'cancelled' || order.subscriptionId !== null) return false;
    const attempt = await this.attempts.latestOfOrder(order.id);
    return attempt !== null && attempt.status === 'failed' && order.transactionId === transactionIdOf(attempt);
  }

  /**
   * The declined attempt of a pending renewal, when its last payment was declined (by the buyer's
   * phone or on the automatic charge): it stays pending, so its checkout says why above the pay form
   * (README, *Taking payments*).
   */
  async renewalDecline(order: Order): Promise<PaymentAttempt | null> {
    if (order.status !== 'pending' || !isRenewalOrder(order)) return null;
    const attempt = await this.attempts.latestOfOrder(order.id);
    return attempt?.status === 'failed' ? attempt : null;
  }

  /**
   * "Try again" (`POST {pay_url}/token/{pay_token}/retry`): a declined order is reopened as
   * `from_order` reopens it (cancelled → pending, no event, the coupon taken again) and keeps its
   * link. An order still pending is left as it is. Anything else (cancelled by the customer,
   * approved, refunded, a renewal whose subscription ended) is `not_pending`.
   */
  async retry(payToken: string): Promise<PaymentResult> {
    const found = await this.orderOfToken(payToken);
    if (found.status === 'pending') return { outcome: 'reopened', order: found };
    if (!(await this.wasDeclined(found))) return { outcome: 'not_pending', order: found };
    return this.dataSource.transaction(async (manager) => {
      const order = (await this.orders.lockById(manager, found.id))!;
      if (order.status === 'pending') return { outcome: 'reopened' as const, order };
      // Changed since it was read (a retry pressed twice): only the same decline is reopened.
      if (order.status !== 'cancelled' || order.transactionId !== found.transactionId)
        return { outcome: 'not_pending' as const, order };
      const reopened = await this.transitions.transitionLocked(manager, order, 'pending');
      return { outcome: reopened ? ('reopened' as const) : ('not_pending' as const), order: reopened ?? order };
    });
  }

  /** `GET {pay_url}/token/{pay_token}/status`: the order and its newest attempt. */
  async status(payToken: string): Promise<{ order: Order; attempt: PaymentAttempt | null }> {
    const order = await this.orderOfToken(payToken);
    return { order, attempt: await this.attempts.latestOfOrder(order.id) };
  }

  get payUrl(): string {
    return this.config.urls.pay;
  }
}
