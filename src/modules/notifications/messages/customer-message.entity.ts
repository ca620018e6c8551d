import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Timestamped } from '../../../common/entities/timestamps';
import type { CustomerMessageKind } from './customer-message';

/**
 * pending → sending (claimed until `claimedUntil` by one worker) → sent | failed (retried) |
 * skipped (store switched emails off, no recipient, nothing left to ask for).
 */
export type CustomerMessageState = 'pending' | 'sending' | 'sent' | 'failed' | 'skipped';

/**
 * One message (README, *Customer emails*) on one channel: the once-only record. `sent` is written when the
 * channel's provider accepted the message (the SMTP server's 250), and a sent message is never
 * sent again, however often its job runs. No content is kept: links carry capabilities (a fresh pay
 * token, a transaction id) that the database stores only hashed or not at all beside the order.
 */
@Entity('customer_messages')
@Index(['channel', 'kind', 'ref'], { unique: true })
@Index(['storeId', 'createdAt'])
export class CustomerMessageRecord extends Timestamped {
  @PrimaryGeneratedColumn()
  id: number;

  @Column()
  storeId: number;

  @Column({ type: 'varchar', length: 32 })
  channel: string;

  @Column({ type: 'varchar', length: 32 })
  kind: CustomerMessageKind;

  /** `order:<id>` or `subscription:<id>`. */
  @Column({ type: 'varchar', length: 64 })
  ref: string;

  /** The order whose facts the message shows. */
  @Column()
  orderId: number;

  /** The first event that asked for it. */
  @Column({ type: 'uuid' })
  eventId: string;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  state: CustomerMessageState;

  @Column({ type: 'int', default: 0 })
  attempts: number;

  /** A `sending` claim older than this belongs to a worker that died: the message may be taken again. */
  @Column({ type: 'timestamptz', nullable: true })
  claimedUntil: Date | null;

  /** Once sent, what the channel reached: the email address, a phone number, a chat (the channel's `recipient`). */
  @Column({ type: 'varchar', nullable: true })
  recipient: string | null;

  /** The provider's answer or where it was written (`250 OK…`, the `.eml` path), or why skipped. */
  @Column({ type: 'text', nullable: true })
  detail: string | null;

  @Column({ type: 'text', nullable: true })
  lastError: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  sentAt: Date | null;
}
