import { domainEvent, DomainEvent } from '../../../common/events/domain-event';
import { formatTimestamp } from '../../../common/time';
import type { Order } from '../orders/order.entity';
import type { Subscription } from './subscription.entity';

/**
 * A subscription's domain events (billing README, `subscriptions/`, published inside the transaction of the change).
 * `refs`: `subscriptionId`, `orderId` (the renewal order for `renewal_due`, `payment_failed` and
 * `past_due`; the subscription's latest order for `cancelled` and `expired`), `productId`, `planId`.
 * The last three reach webhooks as `subscription_past_due`, `subscription_cancelled` and
 * `subscription_expired` (see order-events.ts).
 */
export const SUBSCRIPTION_EVENTS = {
  renewalDue: 'subscription.renewal_due',
  paymentFailed: 'subscription.payment_failed',
  pastDue: 'subscription.past_due',
  cancelled: 'subscription.cancelled',
  expired: 'subscription.expired',
} as const;

export type SubscriptionEventType = (typeof SUBSCRIPTION_EVENTS)[keyof typeof SUBSCRIPTION_EVENTS];

export type SubscriptionDomainEvent = DomainEvent<SubscriptionEventType>;

export function subscriptionEvent(
  type: SubscriptionEventType,
  subscription: Subscription,
  from: string,
  order: Pick<Order, 'id' | 'productId' | 'planId'>,
  at: Date,
): SubscriptionDomainEvent {
  return domainEvent({
    type,
    storeId: subscription.storeId,
    aggregate: { type: 'subscription', id: subscription.id },
    from,
    to: subscription.status,
    refs: {
      subscriptionId: subscription.id,
      orderId: order.id,
      productId: order.productId,
      planId: order.planId ?? subscription.planId,
    },
    occurredAt: formatTimestamp(at),
  });
}
