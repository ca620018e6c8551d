import { forwardRef, Inject, Injectable } from '@nestjs/common';
import { CatalogReads, type Plan } from '../../catalog';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { randomBase62, sha256Hex } from '../../../common/crypto';
import { NotFoundError, ValidationError } from '../../../common/errors/app-error';
import { Cents, toCents } from '../../../common/money';
import { Clock, CLOCK } from '../../../common/time';
import { AffiliatesService } from '../../affiliates';
import {
  COUPON_REJECTION_MESSAGES,
  couponDiscount,
  couponRejection,
  CouponRedemptionService,
  CouponRow,
  takeCouponUse,
} from '../../discounts';
import { CustomerDetails, CustomersRepository, normalizedEmail } from '../customers/customers.repository';
import type { Subscription } from '../subscriptions/subscription.entity';
import { CheckoutRules } from './checkout-rules';
import { CheckoutRejection, checkoutRejection } from './checkout-policy';
import { CreateOrderDto } from './dto/create-order.dto';
import { Order, OrderTracking } from './order.entity';
import { OrdersRepository } from './orders.repository';
import { UTM_KEYS } from '../events/order-event-payload';

/** Why a checkout is refused, by the rule the checkout policy names (OpenAPI: `POST /v1/orders`). */
const CHECKOUT_REJECTIONS: Record<CheckoutRejection, () => Error> = {
  product_not_found: () => new NotFoundError('Product not found.'),
  plan_not_found: () => new NotFoundError('Plan not found.'),
  plan_of_other_product: () => ValidationError.field('plan_id', 'The plan does not belong to this product.'),
  plan_required: () => ValidationError.field('plan_id', 'plan_id is required for recurring products.'),
  affiliate_not_found: () => ValidationError.field('affiliate_id', 'Affiliate not found.'),
};

const couponRefused = (reason: keyof typeof COUPON_REJECTION_MESSAGES) =>
  ValidationError.field('coupon_code', COUPON_REJECTION_MESSAGES[reason]);

const newOrderNumber = (): string => `ORD-${randomBase62(12)}`;

/** What a new order takes from its source (a checkout or a renewal), besides what every order starts from. */
type NewOrderFields = Pick<Order, 'productId' | 'planId'> &
  Partial<
    Pick<
      Order,
      | 'affiliateId'
      | 'returnUrl'
      | 'cancelUrl'
      | 'tracking'
      | 'customerName'
      | 'customerMobileNumber'
      | 'customerPaymentNumber'
      | 'customerId'
      | 'subscriptionId'
      | 'subscriptionPeriod'
    >
  >;

/** The store an order is created in: its id, and its currency, which every order of it takes. */
export interface OrderingStore {
  id: number;
  currency: string;
}

/**
 * Where every new order comes from: a checkout session (`POST /v1/orders`) and a subscription's
 * renewal. Both start from the same values (`pending`, a new order number and pay token, amounts
 * without a discount) and are written by `OrdersRepository`. A checkout is judged first by the
 * checkout policy, the coupon policy and the plugins' checkout rules (plain TypeScript over the
 * rows read through the owning modules); a renewal is the subscription's plan at its current price,
 * with nothing left to judge. `from_order` creates no order: it reopens one (`OrdersService`).
 */
@Injectable()
export class OrderFactory {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly orders: OrdersRepository,
    private readonly catalog: CatalogReads,
    private readonly customers: CustomersRepository,
    @Inject(forwardRef(() => AffiliatesService)) private readonly affiliates: AffiliatesService,
    @Inject(forwardRef(() => CouponRedemptionService)) private readonly coupons: CouponRedemptionService,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly rules: CheckoutRules,
  ) {}

  /**
   * A new order's values: `pending`, a new order number and pay token, the amount without a
   * discount, and what the caller gives. One object literal with every property, in one order,
   * whatever the caller: V8 then gives every new order one hidden class, and the insert that reads
   * each column of it stays fast (a spread followed by more properties gave each order a hidden
   * class of its own: docs/performance.md, ninth round).
   */
  private newOrder(
    storeId: number,
    currency: string,
    payToken: string,
    amount: Cents,
    given: NewOrderFields,
  ): Partial<Order> {
    return {
      storeId,
      orderNumber: newOrderNumber(),
      payTokenHash: sha256Hex(payToken),
      status: 'pending',
      currency,
      originalAmount: amount,
      discountAmount: 0,
      amount,
      discountId: null,
      couponCode: null,
      productId: given.productId,
      planId: given.planId,
      affiliateId: given.affiliateId ?? null,
      returnUrl: given.returnUrl ?? null,
      cancelUrl: given.cancelUrl ?? null,
      tracking: given.tracking ?? {},
      customerName: given.customerName,
      customerMobileNumber: given.customerMobileNumber,
      customerPaymentNumber: given.customerPaymentNumber,
      customerId: given.customerId,
      subscriptionId: given.subscriptionId,
      subscriptionPeriod: given.subscriptionPeriod,
    };
  }

  /**
   * The product and plan a `from_order` body names, judged as a new checkout's are: not found is a
   * 404, a recurring product without its plan a 422. The order itself is reused unchanged.
   */
  async checkReferences(storeId: number, input: CreateOrderDto): Promise<void> {
    const planId = input.plan_id ?? null;
    const { product, plan } = await this.catalog.productForCheckout(storeId, input.product_pid, planId);
    const rejection = checkoutRejection({
      product,
      planRequested: planId !== null,
      plan,
      affiliateRequested: false,
      affiliateFound: false,
    });
    if (rejection) throw CHECKOUT_REJECTIONS[rejection]();
  }

  /**
   * A new checkout session for `input` in `store`, payable with `payToken`. The rows the rules read
   * are fetched at once, each from its module; the rules then decide in order (product, plan,
   * affiliate, coupon, the plugins'), and only an order they all accept is written.
   */
  async checkout(
    store: OrderingStore,
    input: CreateOrderDto,
    payToken: string,
  ): Promise<Pick<Order, 'id' | 'orderNumber'>> {
    const amount = toCents(input.amount);
    const planId = input.plan_id ?? null;
    const affiliateId = input.affiliate_id ?? null;
    const code = input.coupon_code ?? null;
    const details: CustomerDetails = {
      storeId: store.id,
      email: input.customer.email,
      name: input.customer.name.trim(),
      mobileNumber: input.customer.mobile_number,
      paymentNumber: input.customer.payment_number ?? null,
    };
    const [{ product, plan }, affiliate, coupon] = await Promise.all([
      this.catalog.productForCheckout(store.id, input.product_pid, planId),
      affiliateId === null ? null : this.affiliates.find(store.id, affiliateId),
      code === null ? null : this.coupons.find(store.id, code),
    ]);
    const rejection = checkoutRejection({
      product,
      planRequested: planId !== null,
      plan,
      affiliateRequested: affiliateId !== null,
      affiliateFound: affiliate !== null,
    });
    if (rejection) throw CHECKOUT_REJECTIONS[rejection]();
    const order = this.newOrder(store.id, store.currency, payToken, amount, {
      productId: product!.id,
      planId: plan?.id ?? null,
      affiliateId,
      returnUrl: input.return_url ?? null,
      cancelUrl: input.cancel_url ?? null,
      tracking: pickTracking(input.tracking),
      // The buyer as given with this order; the customer record takes the latest (README, Orders).
      customerName: details.name,
      customerMobileNumber: details.mobileNumber,
      customerPaymentNumber: details.paymentNumber,
    });
    if (code !== null) Object.assign(order, await this.applyCoupon(coupon, product!.id, amount, details));
    // The plugins' rules: a refusal comes before anything is written.
    if (!this.rules.empty) {
      await this.rules.check({
        storeId: store.id,
        productPid: input.product_pid,
        planId,
        amount,
        couponCode: code,
        affiliateId,
        customer: { email: details.email, name: details.name, mobileNumber: details.mobileNumber },
        manager: this.dataSource.manager,
      });
    }
    const written = await this.orders.insertCheckout(
      order,
      (from) => this.customers.upsertSource(details, from),
      code === null ? null : takeCouponUse,
    );
    if (written.refused) throw couponRefused(written.refused);
    return written.order;
  }

  /** The coupon's share of a checkout, when the coupon policy accepts it for this customer. */
  private async applyCoupon(
    coupon: CouponRow | null,
    productId: number,
    amount: Cents,
    customer: CustomerDetails,
  ): Promise<Partial<Order>> {
    const heldByCustomer = coupon?.singleUse
      ? await this.orders.customerHoldsCoupon(customer.storeId, normalizedEmail(customer.email), coupon.id)
      : false;
    const rejection = couponRejection(coupon, { productId, now: this.clock.now(), heldByCustomer });
    if (rejection) throw couponRefused(rejection);
    const discount = couponDiscount(coupon!, amount);
    return {
      discountId: coupon!.id,
      couponCode: coupon!.code,
      couponSingleUse: coupon!.singleUse,
      discountAmount: discount,
      amount: amount - discount,
    };
  }

  /**
   * The renewal order of `period` (billing README, `subscriptions/`): the subscription's customer and
   * plan at the plan's current price, no coupon, in the currency of the subscription's first order
   * (a store's currency is fixed once it has an order), inside the caller's transaction.
   */
  renewal(
    manager: EntityManager,
    subscription: Pick<Subscription, 'id' | 'storeId' | 'customerId'>,
    plan: Pick<Plan, 'id' | 'productId' | 'price'>,
    first: Pick<Order, 'currency'>,
    period: number,
    payToken: string,
    /** The sweep's instant (`subscriptions:sweep --at` too): the order's `created_at`. */
    at: Date,
  ): Promise<Order> {
    return this.orders.insert(manager, {
      ...this.newOrder(subscription.storeId, first.currency, payToken, plan.price, {
        productId: plan.productId,
        planId: plan.id,
        customerId: subscription.customerId,
        subscriptionId: subscription.id,
        subscriptionPeriod: period,
      }),
      createdAt: at,
      updatedAt: at,
    });
  }
}

/** The `utm_*` values of the request, without empty ones. */
function pickTracking(tracking: Partial<OrderTracking> | null | undefined): Partial<OrderTracking> {
  const out: Partial<OrderTracking> = {};
  for (const key of UTM_KEYS) {
    const value = tracking?.[key];
    if (typeof value === 'string' && value !== '') out[key] = value;
  }
  return out;
}
