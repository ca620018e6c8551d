import { domainEvent, DomainEvent } from '../../../common/events/domain-event';
import { formatTimestamp } from '../../../common/time';
import type { Order } from '../orders/order.entity';

/**
 * The domain events of an order's state changes (`order.approved`, …): ids and states, published
 * by `OrderTransitionsService` inside the transaction of the change (see common/events). The
 * webhook payload (the webhooks of the OpenAPI description) is not part of the event; listeners build it with
 * `OrderEventPayloads` when they need it.
 */
export const ORDER_EVENT_NAMES = {
  order_approved: 'order.approved',
  order_cancelled: 'order.cancelled',
  order_refund: 'order.refunded',
} as const;

/**
 * The subscription events that reach webhooks (billing README, `subscriptions/`); their payload is the webhook payload (the webhooks of the OpenAPI description) for the
 * subscription's latest order (`refs.orderId`) with `order_type` the kind.
 */
export const SUBSCRIPTION_EVENT_NAMES = {
  subscription_past_due: 'subscription.past_due',
  subscription_cancelled: 'subscription.cancelled',
  subscription_expired: 'subscription.expired',
} as const;

const EVENT_NAMES = { ...ORDER_EVENT_NAMES, ...SUBSCRIPTION_EVENT_NAMES };

/** The kinds of an order's own state changes (the webhooks of the OpenAPI description). */
export type OrderTransitionKind = keyof typeof ORDER_EVENT_NAMES;

/**
 * The event kinds webhooks select and `order_type` names: the contract's order kinds (the webhooks of the OpenAPI description) and the subscription kinds of
 * (billing README, `subscriptions/`).
 */
export type OrderEventKind = keyof typeof EVENT_NAMES;

export const ORDER_EVENT_KINDS = Object.keys(EVENT_NAMES) as OrderEventKind[];

export type OrderEventType = (typeof ORDER_EVENT_NAMES)[OrderTransitionKind];

/** The webhook kind of a domain event type (`order.refunded` → `order_refund`, `subscription.expired` → `subscription_expired`). */
export const ORDER_EVENT_KIND_OF: ReadonlyMap<string, OrderEventKind> = new Map(
  ORDER_EVENT_KINDS.map((kind) => [EVENT_NAMES[kind], kind]),
);

/** An order's domain event: `refs` holds `orderId`, `productId`, `planId`. */
export type OrderDomainEvent = DomainEvent<OrderEventType>;

export function orderEvent(kind: OrderTransitionKind, order: Order, from: string, at: Date): OrderDomainEvent {
  return domainEvent({
    type: ORDER_EVENT_NAMES[kind],
    storeId: order.storeId,
    aggregate: { type: 'order', id: order.id },
    from,
    to: order.status,
    refs: { orderId: order.id, productId: order.productId, planId: order.planId },
    occurredAt: formatTimestamp(at),
  });
}

export interface TrackingPayload {
  utm_source: string | null;
  utm_campaign: string | null;
  utm_medium: string | null;
  utm_content: string | null;
  utm_term: string | null;
}

export interface PlanSubscriberPayload {
  plan_name: string | null;
  start_date: string | null;
  end_date: string | null;
  status: string | null;
  plan_type: string | null;
  plan_interval: string | null;
  cancelled_at: string | null;
  /** `{pay_url}/order/<order_number>?transaction_id=<transaction_id>`, always present. */
  portal_url: string;
}

export interface AffiliatePayload {
  id: number;
  name: string;
  email: string;
  commission_percent: number;
  commission_amount: number;
}

export interface OrderBumpPayload {
  product_pid: string;
  name: string;
  price: number;
}

/** The webhook payload (the webhooks of the OpenAPI description), built by billing at the moment of the change. */
export interface OrderEventPayload {
  order_type: OrderEventKind;
  order_number: string;
  status: string;
  transaction_id: string;
  payment_method: string;
  amount: number;
  currency: string;
  discount_amount: number;
  coupon_code: string | null;
  original_amount: number;
  tracking: TrackingPayload;
  plan_subscriber: PlanSubscriberPayload;
  /** `price` is a string with two decimals ("100.00", README, *Taking payments*). */
  product: { name: string; price: string; pid: string };
  customer: { email: string; name: string; mobile_number: string; payment_number: string | null };
  affiliate: AffiliatePayload[];
  order_bump: OrderBumpPayload[];
  brand: string;
  image: string;
  /**
   * The keys of an approved order that has some, as `GET /v1/orders/{id}` shows them (absent
   * otherwise, so the spec's payload is unchanged for every other order); just before `test`.
   */
  license_keys?: LicenseKeyPayload[];
  /** True for an order of a store's test mode (README, *Test mode*), false for a live one; the last field. */
  test: boolean;
}

export interface LicenseKeyPayload {
  id: number;
  key: string;
  product_pid: string;
  status: string;
  activation_limit: number | null;
  activations: number;
  expires_at: string | null;
}
