import { buyerOf } from '../customers/buyer';
import { Cents, centsToDecimal, centsToNumber } from '../../../common/money';
import { formatTimestamp } from '../../../common/time';
import type { Affiliate } from '../../affiliates';
import type { Plan, Product } from '../../catalog';
import type { Store } from '../../identity';
import type { Customer } from '../customers/customer.entity';
import type { OrderBumpItem } from '../orders/order-bump-item.entity';
import type { Order, OrderTracking } from '../orders/order.entity';
import type { Subscription } from '../subscriptions/subscription.entity';
import type { OrderEventKind, OrderEventPayload, PlanSubscriberPayload, TrackingPayload } from './order-events';

/** Everything the webhook payload is made of, loaded in the transaction of the change. */
export interface OrderEventContext {
  order: Order;
  product: Product;
  plan: Plan | null;
  customer: Customer;
  store: Store;
  subscription: Subscription | null;
  affiliate: Affiliate | null;
  bumps: OrderBumpItem[];
  payUrl: string;
  /** The order that started the subscription, with its transaction id: the portal of a renewal not yet paid or cancelled. */
  subscriptionPortal?: { orderNumber: string; transactionId: string } | null;
}

export const UTM_KEYS = ['utm_source', 'utm_campaign', 'utm_medium', 'utm_content', 'utm_term'] as const;

export function trackingPayload(tracking: Partial<OrderTracking> | null | undefined): TrackingPayload {
  // Spelled out (in UTM_KEYS order) rather than built from UTM_KEYS: it runs for every order shown.
  return {
    utm_source: tracking?.utm_source ?? null,
    utm_campaign: tracking?.utm_campaign ?? null,
    utm_medium: tracking?.utm_medium ?? null,
    utm_content: tracking?.utm_content ?? null,
    utm_term: tracking?.utm_term ?? null,
  };
}

/** `{pay_url}/order/<order_number>?transaction_id=<transaction_id>` (the webhooks of the OpenAPI description). */
export function portalUrl(payUrl: string, orderNumber: string, transactionId: string | null): string {
  return `${payUrl}/order/${encodeURIComponent(orderNumber)}?transaction_id=${encodeURIComponent(transactionId ?? '')}`;
}

export function bumpsTotal(bumps: Pick<OrderBumpItem, 'price'>[]): Cents {
  return bumps.reduce((sum, bump) => sum + bump.price, 0);
}

/** (the webhooks of the OpenAPI description) `plan_subscriber` of an order without a plan: every field null but the portal link. */
export function noPlanSubscriber(portal: string): PlanSubscriberPayload {
  return {
    plan_name: null,
    start_date: null,
    end_date: null,
    status: null,
    plan_type: null,
    plan_interval: null,
    cancelled_at: null,
    portal_url: portal,
  };
}

function planSubscriber(ctx: OrderEventContext): PlanSubscriberPayload {
  // A renewal not tried yet (pending, no attempt: its method cannot be charged without the
  // customer) has no transaction id, so no portal page of its own: the link opens the portal of the
  // order that started its subscription, where the buyer sees it and pays the renewal. Every
  // attempt, a declined one too, gives it its own.
  const portal = ctx.order.transactionId === null && ctx.subscriptionPortal ? ctx.subscriptionPortal : ctx.order;
  const url = portalUrl(ctx.payUrl, portal.orderNumber, portal.transactionId);
  // Only recurring products carry subscriber details.
  if (ctx.product.type !== 'recurring' || !ctx.plan) return noPlanSubscriber(url);
  const sub = ctx.subscription;
  return {
    plan_name: ctx.plan.name,
    start_date: formatTimestamp(sub?.startDate),
    end_date: formatTimestamp(sub?.endDate),
    status: sub?.status ?? null,
    plan_type: 'recurring',
    plan_interval: ctx.plan.interval,
    cancelled_at: formatTimestamp(sub?.cancelledAt),
    portal_url: url,
  };
}

/** The webhook payload (the webhooks of the OpenAPI description) for an order as it stands after the change. */
export function buildOrderEventPayload(kind: OrderEventKind, ctx: OrderEventContext): OrderEventPayload {
  const { order, product, customer } = ctx;
  const buyer = buyerOf(order, customer);
  const basePrice = product.price ?? order.originalAmount - bumpsTotal(ctx.bumps);
  return {
    order_type: kind,
    order_number: order.orderNumber,
    status: order.status,
    transaction_id: order.transactionId ?? '',
    payment_method: order.paymentMethod ?? '',
    amount: centsToNumber(order.amount),
    currency: order.currency,
    discount_amount: centsToNumber(order.discountAmount),
    coupon_code: order.couponCode,
    original_amount: centsToNumber(order.originalAmount),
    tracking: trackingPayload(order.tracking),
    plan_subscriber: planSubscriber(ctx),
    product: { name: product.name, price: centsToDecimal(basePrice), pid: product.pid },
    customer: {
      email: customer.email,
      name: buyer.name,
      mobile_number: buyer.mobileNumber,
      payment_number: order.paymentNumber ?? buyer.paymentNumber,
    },
    affiliate: ctx.affiliate
      ? [
          {
            id: ctx.affiliate.id,
            name: ctx.affiliate.name,
            email: ctx.affiliate.email,
            commission_percent: centsToNumber(ctx.affiliate.commissionPercent),
            commission_amount: centsToNumber(order.commissionAmount ?? 0),
          },
        ]
      : [],
    order_bump: ctx.bumps.map((bump) => ({
      product_pid: bump.productPid,
      name: bump.name,
      price: centsToNumber(bump.price),
    })),
    brand: ctx.store.brand,
    image: product.imageUrl ?? `${ctx.payUrl}/assets/product.svg`,
    test: ctx.store.liveStoreId !== null,
  };
}
