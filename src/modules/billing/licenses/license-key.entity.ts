import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Timestamped } from '../../../common/entities/timestamps';

/** `active`, `disabled` (refund, or the seller), `expired` (its subscription ended). */
export type LicenseStatus = 'active' | 'disabled' | 'expired';
export const LICENSE_STATUSES: LicenseStatus[] = ['active', 'disabled', 'expired'];

/**
 * One license key: issued on approval for each license-enabled product of the order. The key is
 * stored as a SHA-256 hash (lookups) and AES-256-GCM ciphertext under `DELIVERY_SECRET` (display):
 * a dump of the database alone holds no usable key.
 */
@Entity('license_keys')
@Index(['orderId', 'productId'], { unique: true })
@Index(['storeId', 'createdAt', 'id'])
export class LicenseKey extends Timestamped {
  @PrimaryGeneratedColumn()
  id: number;

  @Column()
  storeId: number;

  @Column()
  orderId: number;

  @Column()
  productId: number;

  @Column()
  productPid: string;

  /** The subscription the key lives with (its `expires_at` is the subscription's `end_date`). */
  @Index()
  @Column({ type: 'int', nullable: true })
  subscriptionId: number | null;

  @Index({ unique: true })
  @Column({ type: 'varchar', length: 64 })
  keyHash: string;

  @Column({ type: 'varchar', length: 128 })
  keySealed: string;

  @Column({ type: 'varchar', length: 16, default: 'active' })
  status: LicenseStatus;

  @Column({ type: 'int', nullable: true })
  activationLimit: number | null;

  @Column({ type: 'int', default: 0 })
  activations: number;

  @Column({ type: 'timestamptz', nullable: true })
  expiresAt: Date | null;
}
