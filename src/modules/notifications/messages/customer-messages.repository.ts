import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PreparedStatement } from '../../../database/prepared-statements';
import type { MessageRequest } from './customer-message';
import { CustomerMessageRecord } from './customer-message.entity';

/** The once-only record of each (channel, kind, ref): claimed before a send, settled after it. */
@Injectable()
export class CustomerMessagesRepository {
  private readonly statements: {
    ensure: PreparedStatement;
    claim: PreparedStatement;
    failed: PreparedStatement;
    done: PreparedStatement;
  };

  constructor(@InjectDataSource() dataSource: DataSource) {
    const table = dataSource.getMetadata(CustomerMessageRecord).tableName;
    this.statements = {
      ensure: new PreparedStatement(
        dataSource,
        `INSERT INTO ${table} (store_id, channel, kind, ref, order_id, event_id) VALUES ($1, $2, $3, $4, $5, $6) ` +
          `ON CONFLICT (channel, kind, ref) DO NOTHING`,
      ),
      claim: new PreparedStatement(
        dataSource,
        `UPDATE ${table} SET state = 'sending', attempts = attempts + 1, claimed_until = now() + $4 * interval '1 second', updated_at = now() ` +
          `WHERE channel = $1 AND kind = $2 AND ref = $3 ` +
          `AND (state IN ('pending', 'failed') OR (state = 'sending' AND claimed_until < now())) RETURNING id, attempts`,
      ),
      failed: new PreparedStatement(
        dataSource,
        `UPDATE ${table} SET state = 'failed', claimed_until = NULL, last_error = $2, updated_at = now() WHERE id = $1 AND state = 'sending'`,
      ),
      done: new PreparedStatement(
        dataSource,
        `UPDATE ${table} SET state = $2::varchar, claimed_until = NULL, recipient = $3, detail = $4, ` +
          `sent_at = CASE WHEN $2::varchar = 'sent' THEN now() ELSE NULL END, updated_at = now() WHERE id = $1`,
      ),
    };
  }

  /** The message's row on this channel, created by the first event that asks for it. */
  async ensure(channel: string, request: MessageRequest, storeId: number, eventId: string): Promise<void> {
    await this.statements.ensure.rows([storeId, channel, request.kind, request.ref, request.orderId, eventId]);
  }

  /**
   * Takes the message for one send, for `leaseSeconds`: only a pending or failed one, or one whose
   * previous claim ran out (its worker died). Null when it is sent, skipped or being sent. The
   * claim is its own statement, so no row lock is held across the network call.
   */
  async claim(
    channel: string,
    request: MessageRequest,
    leaseSeconds: number,
  ): Promise<{ id: number; attempts: number } | null> {
    const rows = await this.statements.claim.rows<{ id: number; attempts: number }>([
      channel,
      request.kind,
      request.ref,
      leaseSeconds,
    ]);
    return rows[0] ?? null;
  }

  async settle(
    id: number,
    outcome: { state: 'sent' | 'skipped'; recipient?: string; detail: string } | { state: 'failed'; error: string },
  ): Promise<void> {
    if (outcome.state === 'failed') {
      await this.statements.failed.rows([id, outcome.error.slice(0, 2000)]);
      return;
    }
    await this.statements.done.rows([id, outcome.state, outcome.recipient ?? null, outcome.detail.slice(0, 2000)]);
  }
}
