import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppError, NotFoundError } from '../../../common/errors/app-error';
import { Clock, CLOCK, formatTimestamp } from '../../../common/time';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { inTransaction } from '../../../database/transaction';
import { CatalogReads, continuedBytes, fileLink, type ProductFile } from '../../catalog';
import { DeliveryKeys } from '../delivery/delivery-keys';
import type { Order } from '../orders/order.entity';
import type { OrderBumpItem } from '../orders/order-bump-item.entity';
import { OrdersRepository } from '../orders/orders.repository';
import { SubscriptionsRepository } from '../subscriptions/subscriptions.repository';
import { DOWNLOAD_LINK_TTL_MS, ipPrefix, signDownload, verifyDownload } from './download-link';
import { DownloadsRepository } from './downloads.repository';

/** Why a download link no longer works: the 410 page says it in words. */
export type GoneReason = 'limit' | 'expired' | 'refunded' | 'subscription_expired';

export class DownloadGoneError extends AppError {
  readonly httpStatus = 410;
  constructor(readonly reason: GoneReason) {
    super('This download is no longer available.');
  }
}

/** The file a link grants. */
export interface DownloadGrant {
  file: ProductFile;
}

export interface DownloadLink {
  fileId: number;
  name: string;
  url: string;
  /** A signed `{pay_url}/download/…` link of an upload, valid 24 hours; a seller's link file does not expire. */
  expires: boolean;
}

export interface DownloadAudit {
  file_id: number;
  name: string;
  count: number;
  limit: number;
  last_downloaded_at: string | null;
  events: Array<{ at: string; ip_prefix: string | null; user_agent: string | null }>;
}

/**
 * Buyers' downloads: signed `{pay_url}/download/{token}` links per order and file,
 * valid 24 hours from the page or email that shows them, counted against `DOWNLOAD_LIMIT`; and the
 * seller's audit of them. External link files are the seller's own URLs and are given as they are.
 */
@Injectable()
export class DownloadsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly downloads: DownloadsRepository,
    private readonly orders: OrdersRepository,
    private readonly catalog: CatalogReads,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly keys: DeliveryKeys,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  get limit(): number {
    return this.config.delivery.limit;
  }

  /** The files an approved order delivers: its product's and its accepted bumps'. */
  /** The files of the order's product and bumps (`bumps`: its bump items, when the caller has read them). */
  async filesOf(
    order: Pick<Order, 'id' | 'storeId' | 'productId'>,
    bumps?: ReadonlyArray<Pick<OrderBumpItem, 'productId'>>,
  ): Promise<ProductFile[]> {
    bumps ??= await this.orders.bumpItemsOf(order.id);
    return this.catalog.findFilesOfProducts(order.storeId, [order.productId, ...bumps.map((b) => b.productId)]);
  }

  /** Fresh links (24 hours from now) for the files of an approved order; none for any other. */
  async linksFor(
    order: Pick<Order, 'id' | 'storeId' | 'productId' | 'status'>,
    bumps?: ReadonlyArray<Pick<OrderBumpItem, 'productId'>>,
  ): Promise<DownloadLink[]> {
    if (order.status !== 'approved') return [];
    const files = await this.filesOf(order, bumps);
    const expiresAt = Math.floor((this.clock.now().getTime() + DOWNLOAD_LINK_TTL_MS) / 1000);
    return files
      .map((file) => ({
        fileId: file.id,
        name: file.name,
        url:
          file.kind === 'upload'
            ? `${this.config.urls.pay}/download/${signDownload(this.keys.linkKey, { orderId: order.id, fileId: file.id, expiresAt })}`
            : fileLink(file, this.config.urls.cdn),
        expires: file.kind === 'upload',
      }))
      .filter((link) => link.url !== '');
  }

  /**
   * The file a link grants. A download that starts (no `Range`, or one from byte 0) is counted; a
   * HEAD never is, nor a `Range` past byte 0, which continues a download (a resumed download, a video
   * sought through), at the limit too (README of billing, *Download links*). A link that was never
   * valid is a 404; one that was and is no more, a 410 that says why.
   */
  async open(
    token: string,
    request: { head?: boolean; range?: string; ip?: string; userAgent?: string },
  ): Promise<DownloadGrant> {
    const grant = verifyDownload(this.keys.linkKey, token);
    if (!grant) throw new NotFoundError();
    const order = await this.orders.findById(grant.orderId);
    if (!order) throw new NotFoundError();
    const file = await this.catalog.findFile(order.storeId, grant.fileId);
    if (!file || file.kind !== 'upload') throw new NotFoundError();
    if (order.status === 'refunded') throw new DownloadGoneError('refunded');
    if (order.status !== 'approved') throw new NotFoundError();
    if (order.subscriptionId !== null) {
      const subscription = await this.subscriptions.findById(order.subscriptionId);
      if (subscription?.status === 'expired') throw new DownloadGoneError('subscription_expired');
    }
    const now = this.clock.now();
    if (grant.expiresAt * 1000 <= now.getTime()) throw new DownloadGoneError('expired');

    if (request.head || continuedBytes(request.range, file.sizeBytes) !== null) return { file };
    const key = { storeId: order.storeId, orderId: order.id, fileId: file.id };
    await inTransaction(this.dataSource, async (manager) => {
      const taken = await this.downloads.take(manager, key, this.limit, now);
      if (taken === null) throw new DownloadGoneError('limit');
      await this.downloads.record(manager, {
        ...key,
        at: now,
        ipPrefix: ipPrefix(request.ip),
        userAgent: request.userAgent?.slice(0, 255) ?? null,
      });
    });
    return { file };
  }

  /** `GET /v1/orders/{id}/downloads`: every uploaded file of the order with its count and events. */
  async audit(storeId: number, ref: string): Promise<DownloadAudit[]> {
    const order = await this.orders.findOfStore(storeId, ref);
    if (!order) throw new NotFoundError();
    return this.auditOf(order);
  }

  /** `POST /v1/orders/{id}/downloads/reset`: every count of the order back to 0 (events are kept). */
  async reset(storeId: number, ref: string): Promise<DownloadAudit[]> {
    const order = await this.orders.findOfStore(storeId, ref);
    if (!order) throw new NotFoundError();
    await this.downloads.reset(storeId, order.id);
    return this.auditOf(order);
  }

  async auditOf(order: Order): Promise<DownloadAudit[]> {
    const [files, counters, events] = await Promise.all([
      this.filesOf(order),
      this.downloads.countersOf(order.storeId, order.id),
      this.downloads.eventsOf(order.storeId, order.id),
    ]);
    const counterOf = new Map(counters.map((c) => [c.fileId, c]));
    return files
      .filter((file) => file.kind === 'upload')
      .map((file) => {
        const counter = counterOf.get(file.id);
        return {
          file_id: file.id,
          name: file.name,
          count: counter?.count ?? 0,
          limit: this.limit,
          last_downloaded_at: formatTimestamp(counter?.lastDownloadedAt ?? null),
          events: events
            .filter((e) => e.fileId === file.id)
            .map((e) => ({ at: formatTimestamp(e.at), ip_prefix: e.ipPrefix, user_agent: e.userAgent })),
        };
      });
  }
}
