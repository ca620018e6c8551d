import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Timestamped } from '../../../common/entities/timestamps';
import { Cents, centsColumn } from '../../../common/money';

export type ProductType = 'one_time' | 'recurring';
/** Review state (`status_2` in the API and the table): draft → pending on publish → approved | rejected by review. */
export type ProductReviewStatus = 'draft' | 'pending' | 'approved' | 'rejected';

@Entity('products')
@Index(['storeId', 'createdAt'])
// The operators' review queue across stores (catalog's README, *Review*): only pending products, oldest first.
@Index('products_pending_review_idx', ['updatedAt', 'id'], { where: `"status_2" = 'pending'` })
export class Product extends Timestamped {
  @PrimaryGeneratedColumn()
  id: number;

  @Column()
  storeId: number;

  /** Public identifier (`product_pid`, `pid` in output). */
  @Index({ unique: true })
  @Column()
  pid: string;

  @Column()
  name: string;

  @Column({ type: 'varchar', length: 16, default: 'one_time' })
  type: ProductType;

  @Column({ type: 'numeric', precision: 12, scale: 2, nullable: true, transformer: centsColumn })
  price: Cents | null;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', nullable: true })
  salePageUrl: string | null;

  @Column({ type: 'varchar', nullable: true })
  imageUrl: string | null;

  @Column({ type: 'varchar', nullable: true })
  category: string | null;

  @Column({ type: 'varchar', nullable: true })
  subcategory: string | null;

  @Column({ type: 'varchar', nullable: true })
  contactNumber: string | null;

  @Column({ name: 'status_2', type: 'varchar', length: 16, default: 'draft' })
  reviewStatus: ProductReviewStatus;

  /** The reviewer's words with the last decision (required on a rejection); emailed to the seller. Null until reviewed. */
  @Column({ type: 'text', nullable: true })
  reviewReason: string | null;

  /** each approved order of the product gets a license key. */
  @Column({ default: false })
  licenseKeysEnabled: boolean;

  /** Instances a key may activate; null = no limit. Copied onto each key when it is issued. */
  @Column({ type: 'int', nullable: true })
  licenseActivationLimit: number | null;
}
