import { Check, Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Timestamped } from '../../common/entities/timestamps';
import { Cents, centsColumn } from '../../common/money';

export type DiscountType = 'fixed' | 'percent';
export type DiscountStatus = 'active' | 'inactive';

/** Named so a violation can be recognised and answered 409 (the errors of the OpenAPI description). */
export const DISCOUNT_CODE_UNIQUE_INDEX = 'UQ_discounts_store_id_code_key';

@Entity('discounts')
@Index(DISCOUNT_CODE_UNIQUE_INDEX, ['storeId', 'codeKey'], { unique: true })
// Last line of defence behind the row lock of redemption: the database itself refuses an oversold coupon.
@Check('CHK_discounts_used_count', '"used_count" >= 0 AND ("uses_limit" IS NULL OR "used_count" <= "uses_limit")')
@Index(['storeId', 'createdAt'])
export class Discount extends Timestamped {
  @PrimaryGeneratedColumn()
  id: number;

  @Column()
  storeId: number;

  /** As the seller wrote it. */
  @Column()
  code: string;

  /** Lower-cased code: uniqueness per store ignores case. */
  @Column()
  codeKey: string;

  @Column({ type: 'varchar', length: 8 })
  type: DiscountType;

  /** Fixed amount in cents, or percent in hundredths (12.5% → 1250). */
  @Column({ type: 'numeric', precision: 12, scale: 2, transformer: centsColumn })
  value: Cents;

  @Column({ type: 'varchar', length: 8, default: 'active' })
  status: DiscountStatus;

  @Column({ type: 'int', array: true, default: () => "'{}'" })
  productIds: number[];

  @Column({ type: 'int', nullable: true })
  usesLimit: number | null;

  @Column({ type: 'int', default: 0 })
  usedCount: number;

  @Column({ default: false })
  singleUse: boolean;

  @Column({ default: true })
  neverExpires: boolean;

  @Column({ type: 'timestamptz', nullable: true })
  expiresAt: Date | null;
}
