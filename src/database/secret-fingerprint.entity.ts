import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * What the data was sealed with, told by a fingerprint and never the secret (README,
 * `DELIVERY_SECRET`): a process started with another secret is refused before it serves.
 */
@Entity('secret_fingerprints')
export class SecretFingerprint {
  /** `delivery`: the secret of download links, license keys and stored idempotent answers. */
  @PrimaryColumn({ type: 'varchar', length: 32 })
  name: string;

  /** HMAC-SHA256 of a fixed label under the secret, hex. */
  @Column({ type: 'varchar', length: 64 })
  fingerprint: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  recordedAt: Date;
}
