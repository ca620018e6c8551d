import { randomUUID } from 'node:crypto';

/**
 * Something that happened to an aggregate (an order, a subscription), as other modules and plugins
 * see it: ids and states, never a rendering of it. What a webhook or an email shows is built by
 * its listener from these ids (billing exports the webhook payload builder for that).
 */
export interface DomainEvent<T extends string = string> {
  /** Unique per event: after-commit handlers use it to do their work once. */
  readonly id: string;
  /** `order.approved`, `subscription.past_due`, … (dotted, aggregate first). */
  readonly type: T;
  readonly storeId: number;
  readonly aggregate: { readonly type: string; readonly id: number };
  /** The state before and after; `from` is null for a creation. */
  readonly from: string | null;
  readonly to: string;
  /** Ids a listener needs without loading the aggregate (`orderId`, `productId`, `subscriptionId`). */
  readonly refs: Readonly<Record<string, number | null>>;
  /** ISO-8601, the clock of the change. */
  readonly occurredAt: string;
}

export function domainEvent<T extends string>(fields: Omit<DomainEvent<T>, 'id'>): DomainEvent<T> {
  return { ...fields, id: randomUUID() };
}
