import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Timestamped } from '../../../common/entities/timestamps';
import { Cents, centsColumn } from '../../../common/money';

export type PlanInterval = 'day' | 'week' | 'month' | 'year';

/** A price plan of a recurring product. */
@Entity('plans')
export class Plan extends Timestamped {
  @PrimaryGeneratedColumn()
  id: number;

  @Index()
  @Column()
  storeId: number;

  @Index()
  @Column()
  productId: number;

  /** Public identifier (`plan_id` in the contract). */
  @Index({ unique: true })
  @Column()
  planId: string;

  @Column()
  name: string;

  @Column({ type: 'numeric', precision: 12, scale: 2, transformer: centsColumn })
  price: Cents;

  @Column({ type: 'varchar', length: 8 })
  interval: PlanInterval;

  @Column({ type: 'int', default: 1 })
  intervalCount: number;
}
