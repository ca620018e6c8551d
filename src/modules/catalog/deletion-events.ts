import { domainEvent, DomainEvent } from '../../common/events/domain-event';
import { formatTimestamp } from '../../common/time';

export const PRODUCT_DELETED = 'product.deleted';
export const PLAN_DELETED = 'plan.deleted';

/** The 409 of a deletion refused because it was sold (checked by the catalog, and again by billing's hook). */
export const PRODUCT_HAS_SALES = 'This product has one or more sales and cannot be deleted.';
export const PLAN_HAS_SALES = 'This plan has one or more sales and cannot be deleted.';

/**
 * Published (a domain event, `DomainEvents.publish`) inside the transaction that deletes a product.
 * A module that keeps rows naming the product reacts in that transaction (discounts, billing's open
 * checkouts) or after commit (a webhook limited to it); `refs.productId` is the deleted product's id.
 */
export function productDeletedEvent(storeId: number, productId: number, at: Date): DomainEvent {
  return deletedEvent(PRODUCT_DELETED, 'product', storeId, productId, at);
}

/**
 * Published inside the transaction that deletes a plan on its own (a product's deletion takes its
 * plans with it and publishes `product.deleted` only); `refs.planId` is the deleted plan's id.
 */
export function planDeletedEvent(storeId: number, planId: number, at: Date): DomainEvent {
  return deletedEvent(PLAN_DELETED, 'plan', storeId, planId, at);
}

function deletedEvent(type: string, aggregate: 'product' | 'plan', storeId: number, id: number, at: Date): DomainEvent {
  return domainEvent({
    type,
    storeId,
    aggregate: { type: aggregate, id },
    from: 'active',
    to: 'deleted',
    refs: { [`${aggregate}Id`]: id },
    occurredAt: formatTimestamp(at),
  });
}
