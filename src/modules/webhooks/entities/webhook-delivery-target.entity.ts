import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Webhook } from './webhook.entity';
import { WebhookDelivery } from './webhook-delivery.entity';

/**
 * The webhooks a grouped delivery was sent for: its result shows in the report and `summary` of
 * each of them (the webhooks of the OpenAPI description).
 */
@Entity('webhook_delivery_targets')
@Index(['webhookId', 'deliveryId'])
export class WebhookDeliveryTarget {
  @PrimaryColumn()
  deliveryId: number;

  @PrimaryColumn()
  webhookId: number;

  @ManyToOne(() => WebhookDelivery, { onDelete: 'CASCADE' })
  @JoinColumn()
  delivery?: WebhookDelivery;

  @ManyToOne(() => Webhook, { onDelete: 'CASCADE' })
  @JoinColumn()
  webhook?: Webhook;
}
