import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Timestamped } from '../../../common/entities/timestamps';

export type SubscriptionStatus = 'active' | 'cancelled';

/** Started by the approval of an order with a plan (decisions §8). */
@Entity('subscriptions')
export class Subscription extends Timestamped {
  @PrimaryGeneratedColumn()
  id: number;

  @Index()
  @Column()
  storeId: number;

  @Index({ unique: true })
  @Column()
  orderId: number;

  @Index()
  @Column()
  planId: number;

  @Column()
  customerId: number;

  @Column({ type: 'varchar', length: 16 })
  status: SubscriptionStatus;

  @Column({ type: 'timestamptz' })
  startDate: Date;

  @Column({ type: 'timestamptz' })
  endDate: Date;

  @Column({ type: 'timestamptz', nullable: true })
  cancelledAt: Date | null;
}
