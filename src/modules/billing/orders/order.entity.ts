import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Timestamped } from '../../../common/entities/timestamps';
import { Cents, centsColumn } from '../../../common/money';
import type { OrderStatus } from './order-status';

export interface OrderTracking {
  utm_source: string | null;
  utm_campaign: string | null;
  utm_medium: string | null;
  utm_content: string | null;
  utm_term: string | null;
}

/** Named so a violation can be told from others: the customer already holds the single-use coupon. */
export const ORDER_SINGLE_USE_COUPON_INDEX = 'UQ_orders_single_use_coupon';

const money = { type: 'numeric', precision: 12, scale: 2, transformer: centsColumn } as const;

/**
 * A checkout session and, once paid, a sale. Amounts: `originalAmount` is the request's amount
 * (plus accepted bumps), `discountAmount` the coupon's share, `amount` what the customer pays.
 */
@Entity('orders')
@Index(['storeId', 'createdAt'])
@Index(['storeId', 'status', 'createdAt'])
@Index(['storeId', 'productId', 'createdAt'])
// A customer's orders and a plan's sales (subscribers) are listed newest first with `id` as the tie
// breaker: the indexes end in (created_at, id) so a page is read in index order, without a sort.
@Index(['customerId', 'createdAt', 'id'])
@Index(['customerId', 'status', 'createdAt', 'id'])
@Index(['planId', 'storeId', 'createdAt', 'id'], { where: `"status" IN ('approved', 'refunded')` })
// Single use: one pending or approved order per customer (store + email) and coupon.
// The statement that creates an order checks it, but cannot see an order committed by a racing
// statement after its own snapshot; this index refuses the second of two such orders.
@Index(ORDER_SINGLE_USE_COUPON_INDEX, ['discountId', 'customerId'], {
  unique: true,
  where: `"coupon_single_use" AND "status" IN ('pending', 'approved')`,
})
// One order per period of a subscription, however many sweeps race to create it.
@Index(['subscriptionId', 'subscriptionPeriod'], { unique: true })
export class Order extends Timestamped {
  @PrimaryGeneratedColumn()
  id: number;

  @Column()
  storeId: number;

  @Index({ unique: true })
  @Column()
  orderNumber: string;

  /** SHA-256 of the current `pay_token`; replaced when the order is reused with `from_order`. */
  @Index({ unique: true })
  @Column({ type: 'char', length: 64 })
  payTokenHash: string;

  @Index()
  @Column()
  productId: number;

  @Column({ type: 'int', nullable: true })
  planId: number | null;

  @Column()
  customerId: number;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: OrderStatus;

  @Column({ type: 'char', length: 3 })
  currency: string;

  @Column(money)
  originalAmount: Cents;

  @Column({ ...money, default: 0 })
  discountAmount: Cents;

  @Column(money)
  amount: Cents;

  @Index()
  @Column({ type: 'int', nullable: true })
  discountId: number | null;

  @Column({ type: 'varchar', nullable: true })
  couponCode: string | null;

  /** Whether the coupon was single use when the order took it (see ORDER_SINGLE_USE_COUPON_INDEX). */
  @Column({ default: false })
  couponSingleUse: boolean;

  @Column({ type: 'int', nullable: true })
  affiliateId: number | null;

  @Column({ ...money, nullable: true })
  commissionAmount: Cents | null;

  @Column({ type: 'varchar', nullable: true })
  transactionId: string | null;

  @Column({ type: 'varchar', nullable: true })
  paymentMethod: string | null;

  /**
   * The buyer as given with this order (name, mobile number, payment number): a later order with
   * the same email changes the customer record, never this order. Null on orders made before these
   * columns existed, which show the customer record.
   */
  @Column({ type: 'varchar', nullable: true })
  customerName: string | null;

  @Column({ type: 'varchar', nullable: true })
  customerMobileNumber: string | null;

  @Column({ type: 'varchar', nullable: true })
  customerPaymentNumber: string | null;

  @Column({ type: 'varchar', nullable: true })
  paymentNumber: string | null;

  @Column({ type: 'varchar', nullable: true })
  returnUrl: string | null;

  @Column({ type: 'varchar', nullable: true })
  cancelUrl: string | null;

  @Column({ type: 'jsonb', default: {} })
  tracking: Partial<OrderTracking>;

  /** The subscription this order started (set on approval) or renews (set on creation). */
  @Column({ type: 'int', nullable: true })
  subscriptionId: number | null;

  /** The period of the subscription it pays for: 1 for the order that started it, 2… for renewals. */
  @Column({ type: 'int', nullable: true })
  subscriptionPeriod: number | null;

  @Column({ type: 'timestamptz', nullable: true })
  approvedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  cancelledAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  refundedAt: Date | null;
}

/**
 * Whether an order renews a subscription (billing README, `subscriptions/`): renewal orders are
 * created with a period of 2 or more; the order that started the subscription gets period 1 (and
 * its subscription id) on approval, so `subscriptionId` alone does not tell them apart.
 */
export function isRenewalOrder(order: Pick<Order, 'subscriptionId' | 'subscriptionPeriod'>): boolean {
  return order.subscriptionId !== null && (order.subscriptionPeriod ?? 1) > 1;
}
