import type { EntityManager } from 'typeorm';

/**
 * Domain events of an order's state changes — the contract between billing (which emits them) and
 * the webhook notifier (which listens).
 *
 * Billing emits them with `await eventEmitter.emitAsync(event.name, event)` INSIDE the transaction
 * that changes the order, and listeners write what they need (the webhook outbox) through
 * `event.manager`, so the order change and its delivery jobs commit or roll back together
 * (decisions §7: a crash never loses an event). A listener that throws aborts the change.
 */
export const ORDER_EVENT_NAMES = {
  order_approved: 'order.approved',
  order_cancelled: 'order.cancelled',
  order_refund: 'order.refunded',
} as const;

/** The event kinds of spec §6.2, as webhooks select them and as `order_type` names them. */
export type OrderEventKind = keyof typeof ORDER_EVENT_NAMES;

export const ORDER_EVENT_KINDS = Object.keys(ORDER_EVENT_NAMES) as OrderEventKind[];

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

/** The webhook payload of spec §6.3, built by billing at the moment of the change. */
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
  /** `price` is a string with two decimals ("100.00", decisions §8). */
  product: { name: string; price: string; pid: string };
  customer: { email: string; name: string; mobile_number: string; payment_number: string | null };
  affiliate: AffiliatePayload[];
  order_bump: OrderBumpPayload[];
  brand: string;
  image: string;
}

export class OrderEvent {
  constructor(
    readonly kind: OrderEventKind,
    readonly storeId: number,
    readonly orderId: number,
    /** The product the order is for: product-limited webhooks match on it (spec §6.1.2). */
    readonly productId: number,
    readonly payload: OrderEventPayload,
    /** The transaction of the order change; listeners must write through it. */
    readonly manager: EntityManager,
  ) {}

  get name(): string {
    return ORDER_EVENT_NAMES[this.kind];
  }
}
