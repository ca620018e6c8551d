import { domainEvent, DomainEvent } from '../../../common/events/domain-event';
import { formatTimestamp } from '../../../common/time';

export const PRODUCT_DELETED = 'product.deleted';

/**
 * Published (a domain event, `DomainEvents.publish`) inside the transaction that deletes a product.
 * A module that keeps rows naming the product (a webhook limited to it) removes them after commit;
 * `refs.productId` is the deleted product's id.
 */
export function productDeletedEvent(storeId: number, productId: number, at: Date): DomainEvent {
  return domainEvent({
    type: PRODUCT_DELETED,
    storeId,
    aggregate: { type: 'product', id: productId },
    from: 'active',
    to: 'deleted',
    refs: { productId },
    occurredAt: formatTimestamp(at),
  });
}
