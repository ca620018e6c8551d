import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, Repository } from 'typeorm';
import { PreparedStatement } from '../../database/prepared-statements';
import { EntityColumns } from '../../database/entity-sql';
import { Webhook, WebhookStatus } from './entities/webhook.entity';

export interface WebhookProductRef {
  id: number;
  pid: string;
  name: string;
}

export interface LastDelivery {
  webhookId: number;
  attemptedAt: Date;
  state: 'success' | 'failed';
  responseCode: number | null;
}

@Injectable()
export class WebhooksRepository {
  private readonly columns: EntityColumns<Webhook>;
  private readonly subscribed: PreparedStatement;
  private readonly lastFinished: PreparedStatement;

  constructor(
    @InjectRepository(Webhook) private readonly repo: Repository<Webhook>,
    @InjectDataSource() dataSource: DataSource,
  ) {
    this.columns = new EntityColumns(dataSource, Webhook);
    this.subscribed = new PreparedStatement(
      dataSource,
      `SELECT ${this.columns.select('w', '')} FROM ${this.columns.table} w ` +
        `WHERE w.store_id = $1 AND w.status = 'active' AND $2 = ANY(w.events) AND (w.product_id IS NULL OR w.product_id = $3) ` +
        `ORDER BY w.id ASC`,
    );
    this.lastFinished = new PreparedStatement(
      dataSource,
      `SELECT DISTINCT ON (t.webhook_id) t.webhook_id, d.attempted_at, d.state, d.response_code
           FROM webhook_delivery_targets t
           JOIN webhook_deliveries d ON d.id = t.delivery_id
          WHERE t.webhook_id = ANY($1) AND d.state IN ('success', 'failed')
          ORDER BY t.webhook_id, d.attempted_at DESC, d.id DESC`,
    );
  }

  private webhooks(manager?: EntityManager): Repository<Webhook> {
    return manager ? manager.getRepository(Webhook) : this.repo;
  }

  create(
    data: Pick<Webhook, 'storeId' | 'url' | 'events' | 'productId' | 'name' | 'secret'>,
    manager?: EntityManager,
  ): Promise<Webhook> {
    const repo = this.webhooks(manager);
    return repo.save(repo.create({ ...data, status: 'active' }));
  }

  save(webhook: Webhook, manager?: EntityManager): Promise<Webhook> {
    return this.webhooks(manager).save(webhook);
  }

  findForStore(storeId: number, id: number, manager?: EntityManager): Promise<Webhook | null> {
    return this.webhooks(manager).findOneBy({ storeId, id });
  }

  /** The row locked for a change, in `manager`'s transaction; null when it is gone. */
  lockForStore(storeId: number, id: number, manager: EntityManager): Promise<Webhook | null> {
    return this.webhooks(manager).findOne({ where: { storeId, id }, lock: { mode: 'pessimistic_write' } });
  }

  listForStore(storeId: number, offset: number, limit: number, status?: WebhookStatus): Promise<[Webhook[], number]> {
    return this.repo.findAndCount({
      where: status ? { storeId, status } : { storeId },
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: offset,
      take: limit,
    });
  }

  allForStore(storeId: number): Promise<Webhook[]> {
    return this.repo.find({ where: { storeId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /** The webhooks limited to a product that is being deleted, in the deleting transaction. */
  async deleteLimitedToProduct(storeId: number, productId: number): Promise<void> {
    await this.repo.delete({ storeId, productId });
  }

  async deleteForStore(storeId: number, id: number): Promise<boolean> {
    const result = await this.repo.delete({ storeId, id });
    return (result.affected ?? 0) > 0;
  }

  /**
   * The store's active webhooks that subscribe to `kind` and cover `productId` (the webhooks of the OpenAPI description; null:
   * an event of no product reaches the store-wide webhooks only), read inside the change's transaction.
   */
  async findSubscribed(
    storeId: number,
    kind: string,
    productId: number | null,
    manager: EntityManager,
  ): Promise<Webhook[]> {
    const rows = await this.subscribed.rows([storeId, kind, productId], manager);
    return rows.map((row) => this.columns.hydrate(row));
  }

  findByIds(ids: number[], manager?: EntityManager): Promise<Webhook[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.webhooks(manager).find({ where: { id: In(ids) }, order: { id: 'ASC' } });
  }

  /** The latest finished delivery of each webhook, for `summary` (the webhooks of the OpenAPI description). */
  async lastDeliveries(webhookIds: number[]): Promise<Map<number, LastDelivery>> {
    if (!webhookIds.length) return new Map();
    const rows = await this.lastFinished.rows<{
      webhook_id: number;
      attempted_at: Date;
      state: 'success' | 'failed';
      response_code: number | null;
    }>([webhookIds]);
    return new Map(
      rows.map((r) => [
        r.webhook_id,
        { webhookId: r.webhook_id, attemptedAt: r.attempted_at, state: r.state, responseCode: r.response_code },
      ]),
    );
  }
}
