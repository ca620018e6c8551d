import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Timestamped } from '../../../common/entities/timestamps';

export type WebhookStatus = 'active' | 'inactive';

/**
 * A URL the store wants order events (and the plugins' webhook event kinds) posted to (spec §6.1). Several webhooks of a store may share
 * a URL; they are then delivered to as one group.
 */
@Entity('webhooks')
@Index(['storeId', 'createdAt'])
@Index(['storeId', 'url'])
export class Webhook extends Timestamped {
  @PrimaryGeneratedColumn()
  id: number;

  @Column()
  storeId: number;

  @Column({ type: 'text' })
  url: string;

  @Column({ type: 'text', array: true })
  /** Webhook event kinds: spec §6.2's, or a plugin's (WebhookEventKinds). */
  events: string[];

  /** Null: every product of the store (spec §6.1.2). */
  @Column({ type: 'int', nullable: true })
  productId: number | null;

  @Column({ type: 'varchar', nullable: true })
  name: string | null;

  @Column({ type: 'varchar', length: 16, default: 'active' })
  status: WebhookStatus;

  /**
   * `whsec_<base64>`, stored as issued: it is a symmetric signing key the service must read back
   * to sign every delivery, and decisions §7 shows it on every read of the webhook, so it cannot be
   * hashed the way bearer tokens are.
   */
  @Column()
  secret: string;
}
