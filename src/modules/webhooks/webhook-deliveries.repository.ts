import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { batchOrEachAlone, turnLoader } from '../../database/batch';
import { DataSource, EntityManager, In, Repository } from 'typeorm';
import { PreparedStatement } from '../../database/prepared-statements';
import { EntityColumns } from '../../database/entity-sql';
import { TransactionBatch } from '../../database/transaction-batch';
import { LEASE_LOCK_CLASS } from './delivery/worker-lease';
import { WebhookDelivery } from './entities/webhook-delivery.entity';
import { WebhookDeliveryTarget } from './entities/webhook-delivery-target.entity';

export type NewDelivery = Pick<
  WebhookDelivery,
  'storeId' | 'eventKind' | 'orderId' | 'url' | 'payload' | 'messageId' | 'redeliveryOf'
>;

export interface AttemptRecord {
  state: 'success' | 'failed';
  requestHeaders: Record<string, string> | null;
  attemptedAt: Date;
  responseCode: number | null;
  responseBody: string | null;
  durationMs: number | null;
  error: string | null;
}

/** A delivery claimed for an attempt, with the signing secrets of the webhooks it is for. */
export interface ClaimedDelivery {
  delivery: WebhookDelivery;
  secrets: string[];
}

/** The claiming worker's lease (worker-lease.ts) is no longer held: the worker is gone. */
const LEASE_GONE = `(d.claimed_by IS NULL OR NOT EXISTS (
  SELECT 1 FROM pg_locks l
   WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
     AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
     AND l.classid = ${LEASE_LOCK_CLASS}::oid AND l.objid = d.claimed_by::oid))`;

@Injectable()
export class WebhookDeliveriesRepository {
  private readonly columns: EntityColumns<WebhookDelivery>;
  private readonly statements: {
    createForGroup: PreparedStatement;
    claim: PreparedStatement;
    unfinished: PreparedStatement;
    recentForWebhooks: PreparedStatement;
    record: PreparedStatement;
  };

  private readonly created: TransactionBatch<{ delivery: NewDelivery; webhookIds: number[] }, WebhookDelivery>;

  constructor(
    @InjectRepository(WebhookDelivery) private readonly repo: Repository<WebhookDelivery>,
    @InjectRepository(WebhookDeliveryTarget) private readonly targets: Repository<WebhookDeliveryTarget>,
    @InjectDataSource() dataSource: DataSource,
  ) {
    this.columns = new EntityColumns(dataSource, WebhookDelivery);
    this.created = new TransactionBatch(dataSource, (manager, groups) => this.createAll(manager, groups));
    const returning = this.columns.returning();
    this.statements = {
      // The deliveries made together in one transaction (the events of a group of payments) and
      // their targets, in one statement: each target names its delivery by `message_id`, unique.
      createForGroup: new PreparedStatement(
        dataSource,
        `WITH d AS (
           INSERT INTO webhook_deliveries (store_id, event_kind, order_id, url, payload, message_id, redelivery_of, state)
           SELECT v.store_id, v.event_kind, v.order_id, v.url, v.payload, v.message_id, v.redelivery_of, 'pending'
             FROM unnest($1::int[], $2::text[], $3::int[], $4::text[], $5::json[], $6::text[], $7::int[])
               WITH ORDINALITY AS v(store_id, event_kind, order_id, url, payload, message_id, redelivery_of, n)
            ORDER BY v.n
           RETURNING ${returning}
         ), t AS (
           INSERT INTO webhook_delivery_targets (delivery_id, webhook_id)
           SELECT d.id, w.webhook_id FROM unnest($8::text[], $9::int[]) AS w(message_id, webhook_id)
             JOIN d ON d.message_id = w.message_id
         )
         SELECT ${returning} FROM d`,
      ),
      // Pending, or claimed by a worker whose lease is gone (it died before recording the attempt).
      // With the signing secrets of the group's webhooks that still exist: one round trip.
      claim: new PreparedStatement(
        dataSource,
        `UPDATE webhook_deliveries d SET state = 'sending', claimed_by = $2
          WHERE d.id = ANY($1::int[]) AND (d.state = 'pending' OR (d.state = 'sending' AND ${LEASE_GONE}))
          RETURNING ${returning}, ARRAY(
            SELECT w.secret FROM webhook_delivery_targets t JOIN webhooks w ON w.id = t.webhook_id
             WHERE t.delivery_id = d.id ORDER BY w.id ASC) AS "secrets"`,
      ),
      // Deliveries a live worker should pick up: claimed by a dead one, or pending for longer than
      // a queued job waits (its job was fetched by a worker that died before claiming it).
      unfinished: new PreparedStatement(
        dataSource,
        `SELECT d.id FROM webhook_deliveries d
          WHERE d.state IN ('pending', 'sending')
            AND ((d.state = 'pending' AND d.created_at < now() - make_interval(secs => $1)) OR (d.state = 'sending' AND ${LEASE_GONE}))
          ORDER BY d.id LIMIT $2`,
      ),
      record: new PreparedStatement(
        dataSource,
        `UPDATE webhook_deliveries d SET state = v.state, request_headers = v.request_headers, attempted_at = v.attempted_at,
                response_code = v.response_code, response_body = v.response_body, duration_ms = v.duration_ms, error = v.error
           FROM unnest($1::int[], $2::text[], $3::jsonb[], $4::timestamptz[], $5::int[], $6::text[], $7::int[], $8::text[])
             AS v(id, state, request_headers, attempted_at, response_code, response_body, duration_ms, error)
          WHERE d.id = v.id`,
      ),
      recentForWebhooks: new PreparedStatement(
        dataSource,
        `SELECT r.webhook_id, r.delivery_id FROM (
           SELECT t.webhook_id, t.delivery_id, row_number() OVER (PARTITION BY t.webhook_id ORDER BY t.delivery_id DESC) AS n
             FROM webhook_delivery_targets t WHERE t.webhook_id = ANY($1)
         ) r WHERE r.n <= $2 ORDER BY r.webhook_id, r.delivery_id DESC`,
      ),
    };
  }

  /**
   * The outbox row of one URL group and its link to every webhook of the group. In a transaction,
   * the rows asked for together (the events of a group of payments) go in one statement.
   */
  createForGroup(delivery: NewDelivery, webhookIds: number[], manager?: EntityManager): Promise<WebhookDelivery> {
    if (manager) return this.created.load(manager, { delivery, webhookIds });
    return this.repo.manager.transaction((m) => this.createAll(m, [{ delivery, webhookIds }]).then(([d]) => d));
  }

  private async createAll(
    manager: EntityManager,
    groups: ReadonlyArray<{ delivery: NewDelivery; webhookIds: number[] }>,
  ): Promise<WebhookDelivery[]> {
    const column = <T>(pick: (d: NewDelivery) => T) => groups.map((g) => pick(g.delivery));
    const targets = groups.flatMap((g) => g.webhookIds.map((id) => [g.delivery.messageId, id] as const));
    const rows = await this.statements.createForGroup.rows(
      [
        column((d) => d.storeId),
        column((d) => d.eventKind),
        column((d) => d.orderId),
        column((d) => d.url),
        column((d) => JSON.stringify(d.payload)),
        column((d) => d.messageId),
        column((d) => d.redeliveryOf),
        targets.map(([messageId]) => messageId),
        targets.map(([, id]) => id),
      ],
      manager,
    );
    const byMessage = new Map(rows.map((row) => [row.message_id as string, this.columns.hydrate(row)]));
    return groups.map((g) => byMessage.get(g.delivery.messageId)!);
  }

  findById(id: number): Promise<WebhookDelivery | null> {
    return this.repo.findOneBy({ id });
  }

  /** A delivery of this store that was sent for this webhook. */
  findForWebhook(storeId: number, webhookId: number, deliveryId: number): Promise<WebhookDelivery | null> {
    return this.repo
      .createQueryBuilder('d')
      .innerJoin(WebhookDeliveryTarget, 't', 't.delivery_id = d.id AND t.webhook_id = :webhookId', { webhookId })
      .where('d.id = :deliveryId AND d.store_id = :storeId', { deliveryId, storeId })
      .getOne();
  }

  listForWebhook(
    storeId: number,
    webhookId: number,
    offset: number,
    limit: number,
  ): Promise<[WebhookDelivery[], number]> {
    return this.repo
      .createQueryBuilder('d')
      .innerJoin(WebhookDeliveryTarget, 't', 't.delivery_id = d.id AND t.webhook_id = :webhookId', { webhookId })
      .where('d.store_id = :storeId', { storeId })
      .orderBy('d.id', 'DESC')
      .skip(offset)
      .take(limit)
      .getManyAndCount();
  }

  /** Every delivery made for one order of the store, newest first (the order's events in the dashboard). */
  listForOrder(storeId: number, orderId: number, limit: number): Promise<WebhookDelivery[]> {
    return this.repo.find({ where: { storeId, orderId }, order: { id: 'DESC' }, take: limit });
  }

  /** The most recent deliveries of each webhook (dashboard report). */
  async recentForWebhooks(webhookIds: number[], perWebhook: number): Promise<Map<number, WebhookDelivery[]>> {
    const out = new Map<number, WebhookDelivery[]>(webhookIds.map((id) => [id, []]));
    if (!webhookIds.length) return out;
    const rows = await this.statements.recentForWebhooks.rows<{ webhook_id: number; delivery_id: number }>([
      webhookIds,
      perWebhook,
    ]);
    const deliveries = await this.repo.findBy({ id: In([...new Set(rows.map((r) => r.delivery_id))]) });
    const byId = new Map(deliveries.map((d) => [d.id, d]));
    for (const row of rows) {
      const delivery = byId.get(row.delivery_id);
      if (delivery) out.get(row.webhook_id)!.push(delivery);
    }
    return out;
  }

  /** Webhook ids each delivery was sent for. */
  async targetsOf(deliveryIds: number[]): Promise<Map<number, number[]>> {
    const out = new Map<number, number[]>(deliveryIds.map((id) => [id, []]));
    if (!deliveryIds.length) return out;
    const rows = await this.targets.find({ where: { deliveryId: In(deliveryIds) }, order: { webhookId: 'ASC' } });
    for (const row of rows) out.get(row.deliveryId)?.push(row.webhookId);
    return out;
  }

  /**
   * Claims deliveries for an attempt, in one statement: each a pending one, or one whose claiming
   * worker died before it recorded its attempt (made again, same `webhook-id`). Only one live
   * worker wins each, whatever the number of instances, so a delivery is not sent twice while its
   * worker lives. With each, the signing secrets of the webhooks it is for that still exist, by
   * webhook id. The ids not claimed are missing from the map.
   */
  async claim(ids: readonly number[], leaseToken: number): Promise<Map<number, ClaimedDelivery>> {
    const rows = await this.statements.claim.rows<Record<string, unknown> & { secrets: string[] }>([ids, leaseToken]);
    return new Map(
      rows.map((row) => {
        const delivery = this.columns.hydrate(row);
        return [delivery.id, { delivery, secrets: row.secrets }];
      }),
    );
  }

  /** Ids of deliveries left unfinished by a worker that died (see `unfinished` above), oldest first. */
  async unfinished(pendingForSeconds: number, limit: number): Promise<number[]> {
    const rows = await this.statements.unfinished.rows<{ id: number }>([pendingForSeconds, limit]);
    return rows.map((row) => row.id);
  }

  /** The attempt recorded on its delivery; the attempts finished in one turn of the event loop by one statement. */
  record(id: number, attempt: AttemptRecord): Promise<void> {
    return this.records.load({ id, attempt });
  }

  private readonly records = turnLoader<{ id: number; attempt: AttemptRecord }, void>((keys) =>
    batchOrEachAlone(keys, async (records) => {
      const column = <T>(pick: (a: AttemptRecord) => T) => records.map((r) => pick(r.attempt));
      await this.statements.record.rows([
        records.map((r) => r.id),
        column((a) => a.state),
        column((a) => (a.requestHeaders === null ? null : JSON.stringify(a.requestHeaders))),
        column((a) => a.attemptedAt),
        column((a) => a.responseCode),
        column((a) => a.responseBody),
        column((a) => a.durationMs),
        column((a) => a.error),
      ]);
      return records.map(() => undefined);
    }),
  );
}
