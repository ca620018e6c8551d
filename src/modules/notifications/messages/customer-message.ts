import type { DomainEvent } from '../../../common/events/domain-event';
import type { Cents } from '../../../common/money';

/** The six messages (README, *Customer emails*). */
export const CUSTOMER_MESSAGE_KINDS = [
  'receipt',
  'refund',
  'renewal_due',
  'payment_failed',
  'subscription_cancelled',
  'subscription_expired',
] as const;

export type CustomerMessageKind = (typeof CUSTOMER_MESSAGE_KINDS)[number];

/**
 * Which message each domain event asks for, and what it is keyed on: one message per key and kind
 * whatever the number of events (a retried job, `payment_failed` then `past_due` of the same
 * renewal order).
 */
const MESSAGE_OF_EVENT: Record<string, { kind: CustomerMessageKind; keyedOn: 'orderId' | 'subscriptionId' }> = {
  'order.approved': { kind: 'receipt', keyedOn: 'orderId' },
  'order.refunded': { kind: 'refund', keyedOn: 'orderId' },
  'subscription.renewal_due': { kind: 'renewal_due', keyedOn: 'orderId' },
  // One "payment failed / past due" message per renewal order (README, *Customer emails*, the events contract).
  'subscription.payment_failed': { kind: 'payment_failed', keyedOn: 'orderId' },
  'subscription.past_due': { kind: 'payment_failed', keyedOn: 'orderId' },
  'subscription.cancelled': { kind: 'subscription_cancelled', keyedOn: 'subscriptionId' },
  'subscription.expired': { kind: 'subscription_expired', keyedOn: 'subscriptionId' },
};

export const CUSTOMER_MESSAGE_EVENT_TYPES = Object.keys(MESSAGE_OF_EVENT);

export interface MessageRequest {
  kind: CustomerMessageKind;
  /** `order:<id>` or `subscription:<id>`: with the kind, what makes the message unique. */
  ref: string;
  /** The order whose facts and links the message shows. */
  orderId: number;
}

/** The message an event asks for, or null when it asks for none (or lacks the ids to key it). */
export function messageRequestOf(event: DomainEvent): MessageRequest | null {
  const rule = MESSAGE_OF_EVENT[event.type];
  const orderId = event.refs.orderId;
  const keyId = event.refs[rule?.keyedOn ?? 'orderId'];
  if (!rule || typeof orderId !== 'number' || typeof keyId !== 'number') return null;
  return { kind: rule.kind, ref: `${rule.keyedOn === 'orderId' ? 'order' : 'subscription'}:${keyId}`, orderId };
}

/**
 * One message to one customer, as every channel gets it: facts and links, no rendering. The same
 * `id` on every attempt.
 */
export interface CustomerMessage {
  /** `receipt.order-123.ORD-…`: the same on every attempt and in every process (an idempotency key). */
  id: string;
  kind: CustomerMessageKind;
  /** `test`: an order of the store's test mode (README, *Test mode*): the email goes to the outbox only. */
  store: { id: number; name: string; brand: string; test: boolean };
  customer: { name: string; email: string; mobileNumber: string };
  order: {
    number: string;
    status: string;
    currency: string;
    /** What the customer paid (or pays, for a renewal): after the discount, with the bumps. */
    amount: Cents;
    discountAmount: Cents;
    couponCode: string | null;
    paymentMethod: string | null;
    transactionId: string | null;
    /** The product and each accepted bump, with its price. */
    items: Array<{ name: string; amount: Cents }>;
  };
  product: { name: string };
  plan: { name: string; interval: string; intervalCount: number } | null;
  /** The subscription as billing shows it for this order, when the order started one. */
  subscription: { status: string; endDate: Date; cancelledAt: Date | null; cancelAtPeriodEnd: boolean } | null;
  links: {
    /** `{pay_url}/order/<order_number>?transaction_id=…`: the order portal with the downloads. Null before a payment. */
    portal: string | null;
    /** A fresh `{pay_url}/token/<pay_token>` of a pending (renewal) order. */
    checkout: string | null;
    /** The files of the product and of the accepted bumps (receipt only); `expires`: a signed 24-hour link, not a seller's link. */
    downloads: Array<{ name: string; url: string; expires: boolean }>;
  };
  /** the order's license keys (receipt only). */
  licenseKeys: Array<{ key: string; productPid: string }>;
  /** When the event happened (ISO-8601). */
  occurredAt: string;
}
