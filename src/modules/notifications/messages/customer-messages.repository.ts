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
    claim: PreparedStatement;
    failed: PreparedStatement;
    done: PreparedStatement;
  };

  constructor(@InjectDataSource() dataSource: DataSource) {
    const table = dataSource.getMetadata(CustomerMessageRecord).tableName;
    this.statements = {
      // Created by the first event that asks for it, already claimed; or claimed again when it is
      // pending, failed, or its previous claim ran out (its worker died): one statement.
      claim: new PreparedStatement(
        dataSource,
        `INSERT INTO ${table} AS m (store_id, channel, kind, ref, order_id, event_id, state, attempts, claimed_until) ` +
          `VALUES ($1, $2, $3, $4, $5, $6, 'sending', 1, now() + $7 * interval '1 second') ` +
          `ON CONFLICT (channel, kind, ref) DO UPDATE SET state = 'sending', attempts = m.attempts + 1, ` +
          `claimed_until = now() + $7 * interval '1 second', updated_at = now() ` +
          `WHERE m.state IN ('pending', 'failed') OR (m.state = 'sending' AND m.claimed_until < now()) ` +
          `RETURNING m.id, m.attempts`,
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

  /**
   * Takes the message for one send on this channel, for `leaseSeconds`: its row is created by the
   * first event that asks for it, and taken again only when pending or failed, or when a previous
   * claim ran out (its worker died). Null when it is sent, skipped or being sent. The claim is its
   * own statement, so no row lock is held across the network call.
   */
  async claim(
    channel: string,
    request: MessageRequest,
    event: { storeId: number; id: string },
    leaseSeconds: number,
  ): Promise<{ id: number; attempts: number } | null> {
    const rows = await this.statements.claim.rows<{ id: number; attempts: number }>([
      event.storeId,
      channel,
      request.kind,
      request.ref,
      request.orderId,
      event.id,
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
