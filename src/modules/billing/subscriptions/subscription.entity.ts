import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Timestamped } from '../../../common/entities/timestamps';
import type { PlanInterval } from '../../catalog';

/** `active` (paid up), `past_due` (renewal unpaid after end_date), then `expired`; or `cancelled`. */
export type SubscriptionStatus = 'active' | 'past_due' | 'cancelled' | 'expired';

export const SUBSCRIPTION_STATUSES: SubscriptionStatus[] = ['active', 'past_due', 'cancelled', 'expired'];

/**
 * Started by the approval of an order with a plan (README, *Taking payments*), renewed by one order per period
 * (billing README, `subscriptions/`). Every order of the subscription carries its `subscription_id` and the period it
 * pays for (`orders.subscription_period`: 1 for the order that started it).
 */
@Entity('subscriptions')
// What the sweep looks for: subscriptions of a status whose end_date has come (or is near).
@Index(['status', 'endDate'])
@Index(['storeId', 'createdAt', 'id'])
export class Subscription extends Timestamped {
  @PrimaryGeneratedColumn()
  id: number;

  @Index()
  @Column()
  storeId: number;

  /** The order that started it. */
  @Index({ unique: true })
  @Column()
  orderId: number;

  @Index()
  @Column()
  planId: number;

  @Index()
  @Column()
  customerId: number;

  @Column({ type: 'varchar', length: 16 })
  status: SubscriptionStatus;

  @Column({ type: 'timestamptz' })
  startDate: Date;

  /** `startDate` plus `periods` intervals, always computed from the start (no drift). */
  @Column({ type: 'timestamptz' })
  endDate: Date;

  @Column({ type: 'timestamptz', nullable: true })
  cancelledAt: Date | null;

  /** Cancelled by the customer or seller to end at `endDate` (status stays `active` until then). */
  @Column({ default: false })
  cancelAtPeriodEnd: boolean;

  /** The plan's interval when the subscription started: a plan edited later does not move its periods. */
  @Column({ type: 'varchar', length: 8 })
  interval: PlanInterval;

  @Column({ type: 'int' })
  intervalCount: number;

  /** Periods paid for: 1 on start, one more per approved renewal order. */
  @Column({ type: 'int', default: 1 })
  periods: number;

  /** Automatic charge attempts claimed on the open renewal order (0 to 3); back to 0 on renewal. */
  @Column({ type: 'int', default: 0 })
  renewalAttempts: number;
}
