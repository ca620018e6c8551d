import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Timestamped } from '../../common/entities/timestamps';
import { Cents, centsColumn } from '../../common/money';

@Entity('affiliates')
@Index(['storeId', 'createdAt'])
export class Affiliate extends Timestamped {
  @PrimaryGeneratedColumn()
  id: number;

  @Column()
  storeId: number;

  @Column()
  name: string;

  @Column()
  email: string;

  /** Percent in hundredths (12.5% → 1250), exact. */
  @Column({ type: 'numeric', precision: 5, scale: 2, transformer: centsColumn })
  commissionPercent: Cents;

  /**
   * Set by `DELETE /v1/affiliates/{id}`: gone from the API and from new orders, kept for the orders
   * that name it, whose webhook payloads still say who referred them.
   */
  @Column({ type: 'timestamptz', nullable: true })
  deletedAt: Date | null;
}
