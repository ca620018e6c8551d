import { domainEvent, DomainEvent } from '../../../common/events/domain-event';
import { formatTimestamp } from '../../../common/time';
import type { ProductReviewStatus } from './product.entity';

export const PRODUCT_REVIEWED = 'product.reviewed';

/**
 * Published inside the transaction that records a review decision (`pending` → `approved` |
 * `rejected`), from the CLI or the dashboard's review page. The seller's email about the decision is
 * its after-commit listener (notifications' README); the reviewer's reason stays on the product.
 */
export function productReviewedEvent(
  storeId: number,
  productId: number,
  to: ProductReviewStatus,
  at: Date,
): DomainEvent {
  return domainEvent({
    type: PRODUCT_REVIEWED,
    storeId,
    aggregate: { type: 'product', id: productId },
    from: 'pending',
    to,
    refs: { productId },
    occurredAt: formatTimestamp(at),
  });
}
