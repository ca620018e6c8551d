import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Timestamped } from '../../../common/entities/timestamps';
import { Seller } from './seller.entity';

/** A seller's store: the tenant every resource and every query belongs to. */
@Entity('stores')
export class Store extends Timestamped {
  @PrimaryGeneratedColumn()
  id: number;

  @Index()
  @Column()
  sellerId: number;

  @ManyToOne(() => Seller, { onDelete: 'CASCADE' })
  @JoinColumn()
  seller?: Seller;

  @Column()
  name: string;

  /** Brand name shown on checkout and sent as the webhook payload's `brand`. */
  @Column()
  brand: string;

  @Column({ type: 'char', length: 3, default: 'MZN' })
  currency: string;

  /** Dashboard "Email my customers" (decisions §12): off when the store's own app sends them. */
  @Column({ default: true })
  emailCustomers: boolean;
}
