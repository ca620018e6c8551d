import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { batchOrEachAlone, turnLoader } from '../../../database/batch';
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
          `SELECT v.store_id, v.channel, v.kind, v.ref, v.order_id, v.event_id, 'sending', 1, now() + $7 * interval '1 second' ` +
          `FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::int[], $6::uuid[]) ` +
          `AS v(store_id, channel, kind, ref, order_id, event_id) ` +
          `ON CONFLICT (channel, kind, ref) DO UPDATE SET state = 'sending', attempts = m.attempts + 1, ` +
          `claimed_until = now() + $7 * interval '1 second', updated_at = now() ` +
          `WHERE m.state IN ('pending', 'failed') OR (m.state = 'sending' AND m.claimed_until < now()) ` +
          `RETURNING m.id, m.attempts, m.channel, m.kind, m.ref`,
      ),
      // The messages that failed together in one statement; only those still `sending`: one that
      // another worker took over (after this claim ran out) and sent stays sent.
      failed: new PreparedStatement(
        dataSource,
        `UPDATE ${table} m SET state = 'failed', claimed_until = NULL, last_error = v.error, updated_at = now() ` +
          `FROM unnest($1::int[], $2::text[]) AS v(id, error) WHERE m.id = v.id AND m.state = 'sending'`,
      ),
      // The messages settled together (the receipts of a batch of jobs) in one statement.
      done: new PreparedStatement(
        dataSource,
        `UPDATE ${table} m SET state = v.state, claimed_until = NULL, recipient = v.recipient, detail = v.detail, ` +
          `sent_at = CASE WHEN v.state = 'sent' THEN now() ELSE NULL END, updated_at = now() ` +
          `FROM unnest($1::int[], $2::text[], $3::text[], $4::text[]) AS v(id, state, recipient, detail) WHERE m.id = v.id`,
      ),
    };
  }

  /**
   * Takes the message for one send on this channel, for `leaseSeconds`: its row is created by the
   * first event that asks for it, and taken again only when pending or failed, or when a previous
   * claim ran out (its worker died). Null when it is sent, skipped or being sent. The claim is its
   * own statement, so no row lock is held across the network call. The claims of one turn of the
   * event loop (the jobs of one fetch) go in one statement; a message asked for twice among them
   * is claimed once.
   */
  claim(
    channel: string,
    request: MessageRequest,
    event: { storeId: number; id: string },
    leaseSeconds: number,
  ): Promise<{ id: number; attempts: number } | null> {
    return this.claims.load({ channel, request, event, leaseSeconds });
  }

  private readonly claims = turnLoader<Claim, { id: number; attempts: number } | null>((keys) =>
    batchOrEachAlone(keys, async (asked) => {
      const results: Array<{ id: number; attempts: number } | null> = asked.map(() => null);
      // One statement per lease (one in practice); a key once per statement (ON CONFLICT DO UPDATE
      // may not touch a row twice).
      for (const lease of new Set(asked.map((a) => a.leaseSeconds))) {
        const first = new Map<string, number>();
        asked.forEach((a, i) => {
          const key = keyOf(a.channel, a.request.kind, a.request.ref);
          if (a.leaseSeconds === lease && !first.has(key)) first.set(key, i);
        });
        const claims = [...first.values()].map((i) => asked[i]);
        const rows = await this.statements.claim.rows<{
          id: number;
          attempts: number;
          channel: string;
          kind: string;
          ref: string;
        }>([
          claims.map((c) => c.event.storeId),
          claims.map((c) => c.channel),
          claims.map((c) => c.request.kind),
          claims.map((c) => c.request.ref),
          claims.map((c) => c.request.orderId),
          claims.map((c) => c.event.id),
          lease,
        ]);
        for (const row of rows) {
          const i = first.get(keyOf(row.channel, row.kind, row.ref));
          if (i !== undefined) results[i] = { id: row.id, attempts: row.attempts };
        }
      }
      return results;
    }),
  );

  async settle(
    id: number,
    outcome: { state: 'sent' | 'skipped'; recipient?: string; detail: string } | { state: 'failed'; error: string },
  ): Promise<void> {
    if (outcome.state === 'failed') {
      await this.failed.load({ id, error: outcome.error.slice(0, 2000) });
      return;
    }
    await this.done.load({
      id,
      state: outcome.state,
      recipient: outcome.recipient ?? null,
      detail: outcome.detail.slice(0, 2000),
    });
  }

  /** The messages sent or skipped in one turn of the event loop, recorded by one statement. */
  private readonly done = turnLoader<{ id: number; state: string; recipient: string | null; detail: string }, void>(
    (keys) =>
      batchOrEachAlone(keys, async (settled) => {
        await this.statements.done.rows([
          settled.map((s) => s.id),
          settled.map((s) => s.state),
          settled.map((s) => s.recipient),
          settled.map((s) => s.detail),
        ]);
        return settled.map(() => undefined);
      }),
  );

  /** The messages that failed in one turn of the event loop (a mail server refusing a batch), by one statement. */
  private readonly failed = turnLoader<{ id: number; error: string }, void>((keys) =>
    batchOrEachAlone(keys, async (failures) => {
      await this.statements.failed.rows([failures.map((f) => f.id), failures.map((f) => f.error)]);
      return failures.map(() => undefined);
    }),
  );
}

interface Claim {
  channel: string;
  request: MessageRequest;
  event: { storeId: number; id: string };
  leaseSeconds: number;
}

const keyOf = (channel: string, kind: string, ref: string) => `${channel}\u0000${kind}\u0000${ref}`;
