import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Timestamped } from '../../../common/entities/timestamps';

export type WebhookStatus = 'active' | 'inactive';

/**
 * A URL the store wants order events (and the plugins' webhook event kinds) posted to (the webhooks of the OpenAPI description). Several webhooks of a store may share
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
  /** Webhook event kinds: the contract's (the webhooks of the OpenAPI description), or a plugin's (WebhookEventKinds). */
  events: string[];

  /** Null: every product of the store (the webhooks of the OpenAPI description). */
  @Column({ type: 'int', nullable: true })
  productId: number | null;

  @Column({ type: 'varchar', nullable: true })
  name: string | null;

  @Column({ type: 'varchar', length: 16, default: 'active' })
  status: WebhookStatus;

  /**
   * `whsec_<base64>`, stored as issued: it is a symmetric signing key the service must read back
   * to sign every delivery, and the API shows it on every read of the webhook (README, *Choices where the contract is silent*), so it cannot be
   * hashed the way bearer tokens are.
   */
  @Column()
  secret: string;
}
