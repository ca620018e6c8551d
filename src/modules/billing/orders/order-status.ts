/** Order states (spec §3); `refunded` is the sale status after a refund (decisions §9). */
export type OrderStatus = 'pending' | 'approved' | 'cancelled' | 'refunded';

export const ORDER_STATUSES: OrderStatus[] = ['pending', 'approved', 'cancelled', 'refunded'];
