import { domainEvent, DomainEvent } from '../../../common/events/domain-event';
import { formatTimestamp } from '../../../common/time';

export const PLAN_DELETED = 'plan.deleted';

/**
 * Published (a domain event, `DomainEvents.publish`) inside the transaction that deletes a plan on
 * its own (a product's deletion takes its plans with it and publishes `product.deleted` only).
 * `refs.planId` is the deleted plan's id.
 */
export function planDeletedEvent(storeId: number, planId: number, at: Date): DomainEvent {
  return domainEvent({
    type: PLAN_DELETED,
    storeId,
    aggregate: { type: 'plan', id: planId },
    from: 'active',
    to: 'deleted',
    refs: { planId },
    occurredAt: formatTimestamp(at),
  });
}
