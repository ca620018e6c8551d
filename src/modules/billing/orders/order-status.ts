/** Order states (spec §3); `refunded` is the sale status after a refund (decisions §9). */
export type OrderStatus = 'pending' | 'approved' | 'cancelled' | 'refunded';

export const ORDER_STATUSES: OrderStatus[] = ['pending', 'approved', 'cancelled', 'refunded'];

/**
 * The order state machine, the one table every change goes through. `cancelled → pending` is the
 * reuse of a cancelled order by `from_order` (spec §3); it sends no event.
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
