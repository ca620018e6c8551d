import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Timestamped } from '../../../common/entities/timestamps';
import { Seller } from './seller.entity';

/**
 * A seller's store: the tenant every resource and every query belongs to. Its test mode (README,
 * *Test mode*) is a store of its own, linked to the live one by `liveStoreId`: test keys resolve to
 * it, so the scoping by store that every query already has keeps the two modes apart.
 */
@Entity('stores')
export class Store extends Timestamped {
  @PrimaryGeneratedColumn()
  id: number;

  /** Set on the test side of a store only: the live store it belongs to (at most one test store each). */
  @Index({ unique: true })
  @Column({ type: 'integer', nullable: true })
  liveStoreId: number | null;

  @ManyToOne(() => Store, { onDelete: 'CASCADE' })
  @JoinColumn()
  liveStore?: Store;

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

  /** Fixed once the store (live or test side) has an order: orders keep the currency they were made in. */
  @Column({ type: 'char', length: 3, default: 'MZN' })
  currency: string;

  /** The number buyers may call about their order, shown on the checkout and the order page. */
  @Column({ type: 'varchar', nullable: true })
  contactNumber: string | null;

  /** An http(s) image shown above the brand on the checkout and the order page. */
  @Column({ type: 'varchar', nullable: true })
  logoUrl: string | null;

  /** Dashboard "Email my customers" (README, *Customer emails*): off when the store's own app sends them. */
  @Column({ default: true })
  emailCustomers: boolean;
}
