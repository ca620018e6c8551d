import { Inject, Injectable } from '@nestjs/common';
import { ProductsService } from '../catalog';
import { SellersService } from '../identity';
import { ORDER_EVENT_KINDS, OrderEventKind } from '../billing';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { NotFoundError, ValidationError } from '../../common/errors/app-error';
import { PageRequest } from '../../common/pagination/pagination';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { inTransaction } from '../../database/transaction';
import { DestinationRefusedError, resolveDestination } from './delivery/destination-guard';
import { buildTestEventPayload } from './delivery/test-event';
import { WebhookDeliverer } from './delivery/webhook-deliverer';
import { WebhookQueue } from './delivery/webhook-queue';
import { generateMessageId, generateSigningSecret } from './delivery/webhook-signer';
import { CreateWebhookDto, UpdateWebhookDto } from './dto/webhook-input.dto';
import { WebhookDelivery } from './entities/webhook-delivery.entity';
import { Webhook, WebhookStatus } from './entities/webhook.entity';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { LastDelivery, WebhookProductRef, WebhooksRepository } from './webhooks.repository';
import { WebhookEventKinds } from './event-kinds/webhook-event-kinds';

/** A webhook with what its output shows beside its own columns. */
export interface WebhookView {
  webhook: Webhook;
  product: WebhookProductRef | null;
  /** The latest finished delivery (`summary`), null before the first. */
  last: LastDelivery | null;
}

export interface DeliveryView {
  delivery: WebhookDelivery;
  /** The webhooks of the URL group the delivery was sent for. */
  webhookIds: number[];
}

/** One webhook and its recent deliveries, for the dashboard report (README, *Operating it*: `GET /webhooks`). */
export interface WebhookReport {
  webhook: WebhookView;
  deliveries: DeliveryView[];
}

@Injectable()
export class WebhooksService {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly queue: WebhookQueue,
    private readonly deliverer: WebhookDeliverer,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly kinds: WebhookEventKinds,
    private readonly products: ProductsService,
    private readonly sellers: SellersService,
  ) {}

  async create(storeId: number, dto: CreateWebhookDto): Promise<WebhookView> {
    this.kinds.assertKnown(dto.events);
    const product = await this.resolveProduct(storeId, dto.product_details);
    await this.assertReachable(dto.url);
    const webhook = await inTransaction(this.dataSource, async (manager) => {
      await this.holdProduct(storeId, product?.id ?? null, manager);
      return this.webhooks.create(
        {
          storeId,
          url: dto.url,
          events: dto.events,
          productId: product?.id ?? null,
          name: dto.name ?? null,
          secret: generateSigningSecret(),
        },
        manager,
      );
    });
    return { webhook, product, last: null };
  }

  async list(
    storeId: number,
    page: PageRequest,
    status?: WebhookStatus,
  ): Promise<{ items: WebhookView[]; total: number }> {
    const [rows, total] = await this.webhooks.listForStore(storeId, page.offset, page.perPage, status);
    const items = await this.views(storeId, rows);
    return { items, total: total - (rows.length - items.length) };
  }

  async get(storeId: number, id: number): Promise<WebhookView> {
    return this.viewOf(storeId, await this.require(storeId, id));
  }

  /**
   * Checks what it can outside any transaction (the product, the URL's address: a network call),
   * then changes the row under its lock, holding the product it will name: a webhook whose product
   * is deleted meanwhile is either changed first and then deleted with the others, or found gone
   * (404), never written back with a product that no longer exists.
   */
  async update(storeId: number, id: number, dto: UpdateWebhookDto): Promise<WebhookView> {
    const current = await this.require(storeId, id);
    this.kinds.assertKnown(dto.events);
    const product =
      dto.product_details === undefined ? undefined : await this.resolveProduct(storeId, dto.product_details);
    if (dto.url !== undefined && dto.url !== current.url) await this.assertReachable(dto.url);
    const saved = await inTransaction(this.dataSource, async (manager) => {
      const webhook = await this.webhooks.lockForStore(storeId, id, manager);
      if (!webhook) throw new NotFoundError();
      if (product !== undefined) webhook.productId = product?.id ?? null;
      // Its own product deleted and the webhook not yet taken along (the after-commit listener): gone.
      await this.holdProduct(
        storeId,
        webhook.productId,
        manager,
        product === undefined ? new NotFoundError() : undefined,
      );
      if (dto.url !== undefined) webhook.url = dto.url;
      if (dto.events !== undefined) webhook.events = dto.events;
      if (dto.name !== undefined) webhook.name = dto.name;
      if (dto.status !== undefined) webhook.status = dto.status;
      return this.webhooks.save(webhook, manager);
    });
    return this.viewOf(storeId, saved);
  }

  async remove(storeId: number, id: number): Promise<{ id: number; url: string }> {
    const webhook = await this.require(storeId, id);
    if (!(await this.webhooks.deleteForStore(storeId, id))) throw new NotFoundError();
    return { id: webhook.id, url: webhook.url };
  }

  async listDeliveries(
    storeId: number,
    webhookId: number,
    page: PageRequest,
  ): Promise<{ items: DeliveryView[]; total: number }> {
    await this.require(storeId, webhookId);
    const [rows, total] = await this.deliveries.listForWebhook(storeId, webhookId, page.offset, page.perPage);
    return { items: await this.deliveryViews(rows), total };
  }

  /**
   * A new attempt of a recorded delivery, to the same URL with the same payload and `webhook-id`
   * (receivers can dedupe), signed for the webhooks of its group that still exist. Queued like
   * any delivery, so it is sent by whichever instance runs the worker.
   */
  async redeliver(storeId: number, webhookId: number, deliveryId: number): Promise<DeliveryView> {
    await this.require(storeId, webhookId);
    const original = await this.deliveries.findForWebhook(storeId, webhookId, deliveryId);
    if (!original) throw new NotFoundError();
    const targets = (await this.deliveries.targetsOf([original.id])).get(original.id) ?? [webhookId];
    const delivery = await inTransaction(this.dataSource, async (manager) => {
      const created = await this.deliveries.createForGroup(
        {
          storeId,
          eventKind: original.eventKind,
          orderId: original.orderId,
          url: original.url,
          payload: original.payload,
          messageId: original.messageId,
          redeliveryOf: original.redeliveryOf ?? original.id,
        },
        targets,
        manager,
      );
      await this.queue.enqueue(created.id, manager);
      return created;
    });
    return { delivery, webhookIds: targets };
  }

  /**
   * (README, *Choices where the contract is silent*) `POST /v1/webhooks/{id}/test`: one signed delivery of a sample order to this
   * webhook's URL, now, whatever its status (a seller checks a receiver before turning it on).
   * The delivery row commits first, then the attempt is made outside any transaction and recorded
   * on it like any other, so it shows in the delivery log and can be redelivered.
   */
  async sendTest(storeId: number, id: number): Promise<DeliveryView> {
    const webhook = await this.require(storeId, id);
    const [store, product] = await Promise.all([
      this.storeOf(storeId),
      webhook.productId === null
        ? null
        : this.productsByIds(storeId, [webhook.productId]).then((m) => m.get(webhook.productId!) ?? null),
    ]);
    // A sample order fits the order kinds; a webhook listening only to a plugin's kinds gets order_approved.
    const orderKinds = webhook.events.filter((k): k is OrderEventKind => (ORDER_EVENT_KINDS as string[]).includes(k));
    const kind = orderKinds.includes('order_approved') ? 'order_approved' : (orderKinds[0] ?? 'order_approved');
    const payload = buildTestEventPayload({ kind, store, product, payUrl: this.config.urls.pay });
    const created = await this.deliveries.createForGroup(
      {
        storeId,
        eventKind: kind,
        orderId: null,
        url: webhook.url,
        payload,
        messageId: generateMessageId(),
        redeliveryOf: null,
      },
      [webhook.id],
    );
    await this.deliverer.deliver(created.id);
    const delivery = (await this.deliveries.findById(created.id)) ?? created;
    return { delivery, webhookIds: [webhook.id] };
  }

  /** The deliveries of one order's events (for the order's page in the dashboard). */
  async deliveriesOfOrder(storeId: number, orderId: number, limit = 50): Promise<DeliveryView[]> {
    return this.deliveryViews(await this.deliveries.listForOrder(storeId, orderId, limit));
  }

  /** Every webhook of the store with its `perWebhook` most recent deliveries (dashboard report page). */
  async deliveryReport(storeId: number, perWebhook = 20): Promise<WebhookReport[]> {
    const views = await this.views(storeId, await this.webhooks.allForStore(storeId));
    const recent = await this.deliveries.recentForWebhooks(
      views.map((v) => v.webhook.id),
      perWebhook,
    );
    const all = [...recent.values()].flat();
    const targets = await this.deliveries.targetsOf([...new Set(all.map((d) => d.id))]);
    return views.map((view) => ({
      webhook: view,
      deliveries: (recent.get(view.webhook.id) ?? []).map((delivery) => ({
        delivery,
        webhookIds: targets.get(delivery.id) ?? [],
      })),
    }));
  }

  /** The store's webhook of `id`, or null: its row alone, not the view `get` builds. */
  find(storeId: number, id: number): Promise<Webhook | null> {
    return Number.isSafeInteger(id) && id > 0 ? this.webhooks.findForStore(storeId, id) : Promise.resolve(null);
  }

  private async require(storeId: number, id: number): Promise<Webhook> {
    const webhook = await this.find(storeId, id);
    if (!webhook) throw new NotFoundError();
    return webhook;
  }

  private async resolveProduct(
    storeId: number,
    ref: number | string | null | undefined,
  ): Promise<WebhookProductRef | null> {
    if (ref === undefined || ref === null) return null;
    // A number or a string alike: an id outside int4 names no product (catalog's parseRef).
    const product = await this.products.findForStore(storeId, String(ref));
    if (!product) throw notAProduct();
    return { id: product.id, pid: product.pid, name: product.name };
  }

  /**
   * The product a webhook is being saved with, held until the save commits (catalog's
   * `holdManyForStore`): a deletion under way is waited for and its product refused; one that starts
   * meanwhile waits, and its after-commit listener then deletes this webhook with the others.
   */
  private async holdProduct(
    storeId: number,
    productId: number | null,
    manager: EntityManager,
    missing: Error = notAProduct(),
  ): Promise<void> {
    if (productId !== null) await this.products.holdForStore(storeId, productId, manager, missing);
  }

  /** The store's brand and currency, for a test event's sample order. */
  private async storeOf(storeId: number): Promise<{ brand: string; currency: string }> {
    const store = await this.sellers.findStore(storeId);
    return store ? { brand: store.brand, currency: store.currency.trim() } : { brand: '', currency: 'MZN' };
  }

  /** What a webhook shows of the product it is limited to (catalog's products, by id). */
  private async productsByIds(storeId: number, ids: number[]): Promise<Map<number, WebhookProductRef>> {
    if (!ids.length) return new Map();
    const found = await this.products.findManyForStore(storeId, ids);
    return new Map([...found.values()].map((p) => [p.id, { id: p.id, pid: p.pid, name: p.name }]));
  }

  /** In production, a URL resolving to a non-public address is refused at registration. */
  private async assertReachable(url: string): Promise<void> {
    if (!this.config.isProduction || this.config.webhooks.allowPrivate) return;
    try {
      await resolveDestination(url, true);
    } catch (error) {
      if (!(error instanceof DestinationRefusedError)) throw error;
      throw ValidationError.field(
        'url',
        `url must not resolve to a loopback, private, link-local or metadata address: ${error.message}`,
      );
    }
  }

  /** One webhook's view; 404 when its product was just deleted (see `views`). */
  private async viewOf(storeId: number, webhook: Webhook): Promise<WebhookView> {
    const [view] = await this.views(storeId, [webhook]);
    if (!view) throw new NotFoundError();
    return view;
  }

  private async views(storeId: number, webhooks: Webhook[]): Promise<WebhookView[]> {
    const ids = webhooks.map((w) => w.id);
    const [products, last] = await Promise.all([
      this.productsByIds(
        storeId,
        webhooks.flatMap((w) => (w.productId === null ? [] : [w.productId])),
      ),
      this.webhooks.lastDeliveries(ids),
    ]);
    // A webhook whose product was just deleted is gone already, though its row waits for the
    // after-commit listener: never shown as a webhook of every product (`product: null`).
    return webhooks
      .filter((webhook) => webhook.productId === null || products.has(webhook.productId))
      .map((webhook) => ({
        webhook,
        product: webhook.productId === null ? null : products.get(webhook.productId)!,
        last: last.get(webhook.id) ?? null,
      }));
  }

  private async deliveryViews(deliveries: WebhookDelivery[]): Promise<DeliveryView[]> {
    const targets = await this.deliveries.targetsOf(deliveries.map((d) => d.id));
    return deliveries.map((delivery) => ({ delivery, webhookIds: targets.get(delivery.id) ?? [] }));
  }
}

function notAProduct(): ValidationError {
  return ValidationError.field('product_details', 'product_details must be the id or pid of a product of this store.');
}
