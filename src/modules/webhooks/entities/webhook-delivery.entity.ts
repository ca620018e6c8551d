import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { OrderEventKind, OrderEventPayload } from '../../billing/events/order-events';

/** pending → sending (claimed by one worker) → success | failed. */
export type DeliveryState = 'pending' | 'sending' | 'success' | 'failed';

/**
 * One attempt to POST one event to one URL group (spec §6.1.3): the outbox row written with the
 * order change, then the record of the attempt. A redelivery is a new row pointing at the first.
 */
@Entity('webhook_deliveries')
@Index(['storeId', 'createdAt'])
export class WebhookDelivery {
  @PrimaryGeneratedColumn()
  id: number;

  @Column()
  storeId: number;

  @Column({ type: 'varchar', length: 32 })
  eventKind: OrderEventKind;

  /** null for a test event (`POST /v1/webhooks/{id}/test`), which has no order behind it. */
  @Column({ type: 'int', nullable: true })
  orderId: number | null;

  @Column({ type: 'text' })
  url: string;

  /** `json`, not `jsonb`: the body keeps billing's field order byte for byte. */
  @Column({ type: 'json' })
  payload: OrderEventPayload;

  /** Standard Webhooks `webhook-id`: shared by redeliveries of the same event, so receivers can dedupe. */
  @Column()
  messageId: string;

  @Column({ type: 'int', nullable: true })
  redeliveryOf: number | null;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  state: DeliveryState;

  @Column({ type: 'jsonb', nullable: true })
  requestHeaders: Record<string, string> | null;

  @Column({ type: 'timestamptz', nullable: true })
  attemptedAt: Date | null;

  @Column({ type: 'int', nullable: true })
  responseCode: number | null;

  /** The first characters of the response body (RESPONSE_EXCERPT_CHARS). */
  @Column({ type: 'text', nullable: true })
  responseBody: string | null;

  @Column({ type: 'int', nullable: true })
  durationMs: number | null;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
