import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * pending → sending (claimed by one worker) → success | failed. A `sending` row whose worker died
 * (its lease is gone, see worker-lease.ts) goes back to `sending` under a live worker: the
 * attempt is made again, with the same `webhook-id` (README, *Choices where the contract is silent*, at least once).
 */
export type DeliveryState = 'pending' | 'sending' | 'success' | 'failed';

/**
 * One attempt to POST one event to one URL group (the webhooks of the OpenAPI description): the outbox row written with the
 * order change, then the record of the attempt. A redelivery is a new row pointing at the first.
 */
@Entity('webhook_deliveries')
@Index(['storeId', 'createdAt'])
// The few unfinished rows the worker's recovery sweep looks for, whatever the size of the log.
@Index('IDX_webhook_deliveries_unfinished', ['id'], { where: "state IN ('pending', 'sending')" })
export class WebhookDelivery {
  @PrimaryGeneratedColumn()
  id: number;

  @Column()
  storeId: number;

  @Column({ type: 'varchar', length: 32 })
  eventKind: string;

  /** The order of the event; null for a test event or a plugin's event kind about no order. */
  @Column({ type: 'int', nullable: true })
  orderId: number | null;

  @Column({ type: 'text' })
  url: string;

  /** `json`, not `jsonb`: the body keeps billing's field order byte for byte (the webhooks of the OpenAPI description, for order kinds). */
  @Column({ type: 'json' })
  payload: object;

  /** Standard Webhooks `webhook-id`: shared by redeliveries of the same event, so receivers can dedupe. */
  @Column()
  messageId: string;

  @Column({ type: 'int', nullable: true })
  redeliveryOf: number | null;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  state: DeliveryState;

  /** The lease token of the worker that claimed the delivery (null before the first claim). */
  @Column({ type: 'int', nullable: true })
  claimedBy: number | null;

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
