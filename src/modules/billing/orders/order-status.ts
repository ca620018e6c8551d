/** Order states (the OpenAPI description); `refunded` is the sale status after a refund (README, *Choices where the contract is silent*). */
export type OrderStatus = 'pending' | 'approved' | 'cancelled' | 'refunded';

export const ORDER_STATUSES: OrderStatus[] = ['pending', 'approved', 'cancelled', 'refunded'];

/**
 * The order state machine, the one table every change goes through. `cancelled → pending` is the
 * reuse of a cancelled order by `from_order` (the OpenAPI description); it sends no event.
 */
export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  pending: ['approved', 'cancelled'],
  approved: ['refunded'],
  cancelled: ['pending'],
  refunded: [],
};

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return ORDER_TRANSITIONS[from].includes(to);
}
