import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { createHash, randomBytes } from 'node:crypto';
import { keyedBase62, randomBase62, sha256Hex } from '../../../common/crypto';
import { ConflictError, NotFoundError, ValidationError } from '../../../common/errors/app-error';
import { toCents } from '../../../common/money';
import { PageRequest } from '../../../common/pagination/pagination';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { Clock, CLOCK } from '../../../common/time';
import { codeKey, COUPON_REJECTION_MESSAGES } from '../../discounts';
import { CatalogReadRepository } from '../catalog-read/catalog-read.repository';
import { CustomerDetails, CustomersRepository, normalizedEmail } from '../customers/customers.repository';
import { UTM_KEYS } from '../events/order-event-payload';
import { PaymentsService } from '../payments/payments.service';
import { SubscriptionsService } from '../subscriptions/subscriptions.service';
import { CheckoutRules } from './checkout-rules';
import { CreateOrderDto } from './dto/create-order.dto';
import { OrderView } from './order.mapper';
import { Order, OrderTracking } from './order.entity';
import { OrderTransitionsService } from './order-transitions.service';
import { CheckoutRejection, OrderFilters, OrdersRepository } from './orders.repository';

export interface CheckoutSession {
  order: Pick<Order, 'id' | 'orderNumber'>;
  /** Shown once; only its SHA-256 is stored. */
  payToken: string;
  checkoutUrl: string;
  reused: boolean;
}

/** 32 base62 characters: about 190 random bits (the contract asks for 128+). */
export const newPayToken = (): string => randomBase62(32);

const newOrderNumber = (): string => `ORD-${randomBase62(12)}`;

/** Why a checkout is refused, by the rule `OrdersRepository.insertCheckout` reports broken (OpenAPI: `POST /v1/orders`; README, *Choices where the contract is silent*). */
const CHECKOUT_REJECTIONS: Record<CheckoutRejection, () => Error> = {
  product_not_found: () => new NotFoundError('Product not found.'),
  plan_not_found: () => new NotFoundError('Plan not found.'),
  plan_of_other_product: () => ValidationError.field('plan_id', 'The plan does not belong to this product.'),
  plan_required: () => ValidationError.field('plan_id', 'plan_id is required for recurring products.'),
  affiliate_not_found: () => ValidationError.field('affiliate_id', 'Affiliate not found.'),
};

/** Orders as the seller's API sees them: checkout sessions, reads and refunds. */
@Injectable()
export class OrdersService {
  /** The key of the links `checkoutUrlFor` hands out. */
  private readonly linkKey: Buffer;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly orders: OrdersRepository,
    private readonly catalog: CatalogReadRepository,
    private readonly customers: CustomersRepository,
    private readonly subscriptions: SubscriptionsService,
    private readonly transitions: OrderTransitionsService,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly payments: PaymentsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly rules: CheckoutRules,
  ) {
    // From SESSION_SECRET, which every instance shares (README); without it, a key of this process's
    // own, and a link handed out before a restart is replaced at the next one handed out.
    this.linkKey = createHash('sha256')
      .update(`checkout-links\0${config.sessionSecret ?? randomBytes(32).toString('hex')}`)
      .digest();
  }

  /** `POST /v1/orders` (OpenAPI description): a new checkout session, or the reuse of `from_order`. */
  async create(storeId: number, input: CreateOrderDto): Promise<CheckoutSession> {
    if (input.from_order) return this.reuse(storeId, input.from_order);

    const originalAmount = toCents(input.amount);
    const payToken = newPayToken();
    const session = (order: CheckoutSession['order']): CheckoutSession => ({
      order,
      payToken,
      checkoutUrl: this.checkoutUrl(payToken),
      reused: false,
    });
    const customerDetails: CustomerDetails = {
      storeId,
      email: input.customer.email,
      name: input.customer.name.trim(),
      mobileNumber: input.customer.mobile_number,
      paymentNumber: input.customer.payment_number ?? null,
    };
    // The plugins' rules: a refusal comes before anything is written.
    if (!this.rules.empty) {
      await this.rules.check({
        storeId,
        productPid: input.product_pid,
        planId: input.plan_id ?? null,
        amount: originalAmount,
        couponCode: input.coupon_code ?? null,
        affiliateId: input.affiliate_id ?? null,
        customer: {
          email: customerDetails.email,
          name: customerDetails.name,
          mobileNumber: customerDetails.mobileNumber,
        },
        manager: this.dataSource.manager,
      });
    }
    // What the order takes from the request; the product, plan, currency, customer and the coupon's
    // share come from the statement's own reads (OrdersRepository.insertCheckout).
    const values = {
      storeId,
      orderNumber: newOrderNumber(),
      payTokenHash: sha256Hex(payToken),
      status: 'pending' as const,
      originalAmount,
      discountAmount: 0,
      amount: originalAmount,
      affiliateId: input.affiliate_id ?? null,
      returnUrl: input.return_url ?? null,
      cancelUrl: input.cancel_url ?? null,
      tracking: pickTracking(input.tracking),
      // The buyer as given with this order; the customer record takes the latest (README, Orders).
      customerName: customerDetails.name,
      customerMobileNumber: customerDetails.mobileNumber,
      customerPaymentNumber: customerDetails.paymentNumber,
    };
    const outcome = await this.orders.insertCheckout(
      {
        storeId,
        productPid: input.product_pid,
        planId: input.plan_id ?? null,
        affiliateId: input.affiliate_id ?? null,
        coupon: input.coupon_code
          ? {
              codeKey: codeKey(input.coupon_code),
              amount: originalAmount,
              email: normalizedEmail(customerDetails.email),
              now: this.clock.now(),
            }
          : null,
      },
      (from) => this.customers.upsertSource(customerDetails, from),
      values,
    );
    if (outcome.order) return session(outcome.order);
    if (outcome.rejection) throw CHECKOUT_REJECTIONS[outcome.rejection]();
    throw ValidationError.field('coupon_code', COUPON_REJECTION_MESSAGES[outcome.couponRejection]);
  }

  /**
   * `from_order`: the store's pending or cancelled order comes back unchanged as pending with a
   * fresh pay_token (the old one stops working). Approved and refunded orders are sales: 409.
   */
  private reuse(storeId: number, ref: string): Promise<CheckoutSession> {
    const payToken = newPayToken();
    return this.dataSource.transaction(async (manager) => {
      const found = await this.orders.findOfStore(storeId, ref, manager);
      if (!found) throw new NotFoundError('Order not found.');
      let order = (await this.orders.lockById(manager, found.id))!;
      if (order.status === 'approved' || order.status === 'refunded')
        throw new ConflictError('Order cannot be reused.');
      // A renewal order is cancelled only with its subscription's end (billing README, `subscriptions/`): it stays closed.
      if (order.status === 'cancelled' && order.subscriptionId !== null)
        throw new ConflictError('Order cannot be reused.');
      if (order.status === 'cancelled') order = (await this.transitions.transition(order.id, 'pending', {}, manager))!;
      await this.orders.setPayTokenHash(manager, order.id, sha256Hex(payToken));
      return { order, payToken, checkoutUrl: this.checkoutUrl(payToken), reused: true };
    });
  }

  /**
   * The checkout link of a pending order that the store hands out itself (a renewal's, in the
   * customer's emails and behind the portal's "Pay the renewal" button). It is the same link every
   * time: its pay_token is derived from the order number with the server's key, so a dunning email
   * sent after the customer pressed the button, or a second email, does not break a link already
   * given out, as an invoice link stays the same until it is paid. The database still holds only
   * its hash. The first such link replaces the one the order was created with (the sweep keeps no
   * plaintext of it), and so does a link `from_order` gave out. Null when the order is no longer
   * pending (paid, or cancelled with its subscription): there is nothing to pay.
   */
  async checkoutUrlFor(orderId: number): Promise<string | null> {
    const order = await this.orders.findById(orderId);
    if (!order || order.status !== 'pending') return null;
    const payToken = keyedBase62(this.linkKey, `checkout:${order.orderNumber}`);
    const payTokenHash = sha256Hex(payToken);
    if (order.payTokenHash !== payTokenHash) {
      const set = await this.dataSource.transaction(async (manager) => {
        const locked = await this.orders.lockById(manager, orderId);
        if (!locked || locked.status !== 'pending') return false;
        await this.orders.setPayTokenHash(manager, locked.id, payTokenHash);
        return true;
      });
      if (!set) return null;
    }
    return this.checkoutUrl(payToken);
  }

  async list(storeId: number, filters: OrderFilters, page: PageRequest): Promise<[OrderView[], number]> {
    const [orders, total] = await this.orders.listOfStore(storeId, filters, page);
    return [await this.views(orders), total];
  }

  async get(storeId: number, ref: string): Promise<OrderView> {
    const view = await this.orders.findViewOfStore(storeId, ref);
    if (!view) throw new NotFoundError();
    return view;
  }

  /**
   * `POST /v1/orders/{id}/refund` (README, *Choices where the contract is silent*; README, *Taking payments*): approved → refunded through the gateway that
   * took the payment, sending `order_refund`; the gateway's refusal is a 502 and changes nothing.
   */
  async refund(storeId: number, ref: string): Promise<OrderView> {
    const order = await this.orders.findOfStore(storeId, ref);
    if (!order) throw new NotFoundError();
    if (order.status !== 'approved') throw new ConflictError('Only approved orders can be refunded.');
    const refunded = await this.payments.refund(order);
    if (!refunded) throw new ConflictError('Only approved orders can be refunded.');
    // The same ref resolves to the same order: shown as GET shows it, with its payments.
    const view = await this.orders.findViewOfStore(storeId, ref);
    if (!view) throw new NotFoundError();
    return view;
  }

  /** Loads what the representations of these orders show, in a fixed number of queries. */
  async views(orders: Order[], manager?: EntityManager): Promise<OrderView[]> {
    const ids = orders.map((o) => o.id);
    const [products, plans, customers, subscriptions, bumps] = await Promise.all([
      this.catalog.findProducts(
        orders.map((o) => o.productId),
        manager,
      ),
      this.catalog.findPlans(
        orders.flatMap((o) => (o.planId === null ? [] : [o.planId])),
        manager,
      ),
      this.customers.findByIds(
        orders.map((o) => o.customerId),
        manager,
      ),
      this.subscriptions.findByIds(orders.flatMap((o) => (o.subscriptionId === null ? [] : [o.subscriptionId]))),
      this.orders.bumpItemsOfOrders(ids),
    ]);
    return orders.map((order) => ({
      order,
      product: products.get(order.productId) ?? null,
      plan: order.planId === null ? null : (plans.get(order.planId) ?? null),
      customer: customers.get(order.customerId)!,
      subscription: order.subscriptionId === null ? null : (subscriptions.get(order.subscriptionId) ?? null),
      bumps: bumps.get(order.id) ?? [],
    }));
  }

  checkoutUrl(payToken: string): string {
    return `${this.config.urls.pay}/token/${payToken}`;
  }
}

function pickTracking(tracking: Partial<OrderTracking> | null | undefined): Partial<OrderTracking> {
  const out: Partial<OrderTracking> = {};
  for (const key of UTM_KEYS) {
    const value = tracking?.[key];
    if (typeof value === 'string' && value !== '') out[key] = value;
  }
  return out;
}
