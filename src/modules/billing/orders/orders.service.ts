import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { randomBase62, sha256Hex } from '../../../common/crypto';
import { ConflictError, NotFoundError, ValidationError } from '../../../common/errors/app-error';
import { toCents } from '../../../common/money';
import { PageRequest } from '../../../common/pagination/pagination';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { AffiliatesService } from '../../affiliates/affiliates.service';
import { CouponRedemptionService, CouponReservation } from '../../discounts/coupon-redemption.service';
import { CatalogReadRepository } from '../catalog-read/catalog-read.repository';
import { CustomerDetails, CustomersRepository } from '../customers/customers.repository';
import { UTM_KEYS } from '../events/order-event-payload';
import { SubscriptionsService } from '../subscriptions/subscriptions.service';
import { CreateOrderDto } from './dto/create-order.dto';
import { OrderView } from './order.mapper';
import { Order, OrderTracking } from './order.entity';
import { OrderTransitionsService } from './order-transitions.service';
import { OrderFilters, OrdersRepository } from './orders.repository';

export interface CheckoutSession {
  order: Pick<Order, 'id' | 'orderNumber'>;
  /** Shown once; only its SHA-256 is stored. */
  payToken: string;
  checkoutUrl: string;
  reused: boolean;
}

/** 32 base62 characters: about 190 random bits (decisions §6 asks for 128+). */
export const newPayToken = (): string => randomBase62(32);

const newOrderNumber = (): string => `ORD-${randomBase62(12)}`;

/** Orders as the seller's API sees them: checkout sessions, reads and refunds. */
@Injectable()
export class OrdersService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly orders: OrdersRepository,
    private readonly catalog: CatalogReadRepository,
    private readonly customers: CustomersRepository,
    private readonly subscriptions: SubscriptionsService,
    private readonly transitions: OrderTransitionsService,
    private readonly affiliates: AffiliatesService,
    private readonly coupons: CouponRedemptionService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** `POST /v1/orders` (spec §4.1): a new checkout session, or the reuse of `from_order`. */
  async create(storeId: number, input: CreateOrderDto): Promise<CheckoutSession> {
    if (input.from_order) return this.reuse(storeId, input.from_order);

    const originalAmount = toCents(input.amount);
    const payToken = newPayToken();
    const session = (order: CheckoutSession['order']): CheckoutSession => ({ order, payToken, checkoutUrl: this.checkoutUrl(payToken), reused: false });
    const customerDetails: CustomerDetails = {
      storeId,
      email: input.customer.email,
      name: input.customer.name.trim(),
      mobileNumber: input.customer.mobile_number,
      paymentNumber: input.customer.payment_number ?? null,
    };
    const orderValues = (coupon: CouponReservation | null): Omit<Partial<Order>, 'customerId' | 'productId' | 'planId' | 'currency'> => {
      const discountAmount = coupon?.discountAmount ?? 0;
      return {
        storeId,
        orderNumber: newOrderNumber(),
        payTokenHash: sha256Hex(payToken),
        status: 'pending',
        originalAmount,
        discountAmount,
        amount: originalAmount - discountAmount,
        discountId: coupon?.discountId ?? null,
        couponCode: coupon?.code ?? null,
        affiliateId: input.affiliate_id ?? null,
        returnUrl: input.return_url ?? null,
        cancelUrl: input.cancel_url ?? null,
        tracking: pickTracking(input.tracking),
      };
    };

    // The common checkout, with no coupon to redeem and no affiliate to check in between, is one
    // statement: product (and plan) lookup, customer upsert and order insert, atomic on its own
    // (no BEGIN and COMMIT round trips). It writes nothing when the product or plan does not
    // fit, and the checks below then give the reason.
    if (input.affiliate_id == null && !input.coupon_code) {
      const order = await this.orders.insertCheckout(
        storeId,
        { productPid: input.product_pid, planId: input.plan_id ?? null },
        (when) => this.customers.upsertSource(customerDetails, when),
        orderValues(null),
      );
      if (order) return session(order);
    }

    const found = await this.catalog.findProductForOrder(storeId, input.product_pid);
    if (!found) throw new NotFoundError('Product not found.');
    const { product, currency } = found;
    let planId: number | null = null;
    if (input.plan_id) {
      const plan = await this.catalog.findPlanByPublicId(storeId, input.plan_id);
      if (!plan) throw new NotFoundError('Plan not found.');
      if (plan.productId !== product.id) throw ValidationError.field('plan_id', 'The plan does not belong to this product.');
      planId = plan.id;
    } else if (product.type === 'recurring') {
      throw ValidationError.field('plan_id', 'plan_id is required for recurring products.');
    }

    // Customer, coupon use, affiliate check and order commit together or not at all.
    const order = await this.dataSource.transaction(async (manager) => {
      const customer = await this.customers.upsert(manager, customerDetails);
      if (input.affiliate_id != null) await this.affiliates.findForOrder(storeId, input.affiliate_id, manager);
      const coupon = input.coupon_code
        ? await this.coupons.reserve(manager, {
            storeId,
            code: input.coupon_code,
            productId: product.id,
            amount: originalAmount,
            customerEmail: customer.email,
          })
        : null;
      // Object.assign, not `{ ...orderValues(coupon), … }`: see toOrderDto on spreads in hot literals.
      return this.orders.insert(manager, Object.assign(orderValues(coupon), { productId: product.id, planId, currency, customerId: customer.id }));
    });
    return session(order);
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
      if (order.status === 'approved' || order.status === 'refunded') throw new ConflictError('Order cannot be reused.');
      // A renewal order is cancelled only with its subscription's end (decisions §11): it stays closed.
      if (order.status === 'cancelled' && order.subscriptionId !== null) throw new ConflictError('Order cannot be reused.');
      if (order.status === 'cancelled') order = (await this.transitions.transition(order.id, 'pending', {}, manager))!;
      await this.orders.setPayTokenHash(manager, order.id, sha256Hex(payToken));
      return { order, payToken, checkoutUrl: this.checkoutUrl(payToken), reused: true };
    });
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

  /** `POST /v1/orders/{id}/refund` (decisions §9): approved → refunded, sends `order_refund`. */
  async refund(storeId: number, ref: string): Promise<OrderView> {
    const order = await this.orders.findOfStore(storeId, ref);
    if (!order) throw new NotFoundError();
    const refunded = await this.transitions.transition(order.id, 'refunded');
    if (!refunded) throw new ConflictError('Only approved orders can be refunded.');
    return (await this.views([refunded]))[0];
  }

  /** Loads what the representations of these orders show, in a fixed number of queries. */
  async views(orders: Order[], manager?: EntityManager): Promise<OrderView[]> {
    const ids = orders.map((o) => o.id);
    const [products, plans, customers, subscriptions, bumps] = await Promise.all([
      this.catalog.findProducts(orders.map((o) => o.productId), manager),
      this.catalog.findPlans(orders.flatMap((o) => (o.planId === null ? [] : [o.planId])), manager),
      this.customers.findByIds(orders.map((o) => o.customerId), manager),
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

  /**
   * A fresh checkout link of a pending order (a renewal's, for the customer's email or the portal):
   * rotates its pay_token as `from_order` does, so earlier links stop working. 404 `Order not
   * found.` for an unknown order, 409 `Order cannot be reused.` once it is no longer pending.
   */
  async checkoutUrlFor(orderId: number): Promise<string> {
    const payToken = newPayToken();
    await this.dataSource.transaction(async (manager) => {
      const order = await this.orders.lockById(manager, orderId);
      if (!order) throw new NotFoundError('Order not found.');
      if (order.status !== 'pending') throw new ConflictError('Order cannot be reused.');
      await this.orders.setPayTokenHash(manager, order.id, sha256Hex(payToken));
    });
    return this.checkoutUrl(payToken);
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
