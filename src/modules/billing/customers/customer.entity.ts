import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Timestamped } from '../../../common/entities/timestamps';

/** One per store and email (case-insensitive: `email` is stored lower-cased). */
@Entity('customers')
@Index(['storeId', 'email'], { unique: true })
@Index(['storeId', 'createdAt'])
export class Customer extends Timestamped {
  @PrimaryGeneratedColumn()
  id: number;

  @Column()
  storeId: number;

  @Column()
  email: string;

  @Column()
  name: string;

  @Column()
  mobileNumber: string;

  @Column({ type: 'varchar', nullable: true })
  paymentNumber: string | null;
}
