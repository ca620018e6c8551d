import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { DomainEvent } from '../../common/events/domain-event';
import { DomainEvents } from '../../common/events/domain-events';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { PRODUCT_REVIEWED, ProductsService } from '../catalog';
import { SellersService } from '../identity';
import { retryLimitFor } from './customer-messages.listener';
import { EmailChannel } from './email/email.channel';
import type { SellerMessage } from './messages/seller-message';

/**
 * Messages to sellers (notifications' README, *Messages to sellers*): today the review decision on a
 * product, from the durable queue `event:seller-emails` after the decision commits, retried with the
 * customer emails' back-off. Email only: the plugin channels reach customers.
 *
 * At least once: the job is the once-only record (one per decision event); a worker that dies after
 * the server accepted the message sends it again with the same Message-ID.
 */
@Injectable()
export class SellerMessagesListener implements OnModuleInit {
  private readonly logger = new Logger('SellerEmails');

  constructor(
    private readonly events: DomainEvents,
    private readonly products: ProductsService,
    private readonly sellers: SellersService,
    private readonly email: EmailChannel,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const delay = this.config.mail.retryDelaySeconds;
    this.events.afterCommit('seller-emails', [PRODUCT_REVIEWED], (event) => this.handle(event), {
      retryLimit: retryLimitFor(delay),
      retryDelaySeconds: delay,
      retryBackoff: true,
      expireInSeconds: 180,
      concurrency: 2,
    });
  }

  async handle(event: DomainEvent): Promise<void> {
    const message = await this.compose(event);
    if (!message) return;
    const { recipient, detail } = await this.email.sendToSeller(message);
    this.logger.log({ message: message.id, recipient, detail }, 'Review decision emailed to the seller');
  }

  /** Null when there is no one to tell: the product or the store is gone. */
  private async compose(event: DomainEvent): Promise<SellerMessage | null> {
    const productId = event.refs.productId;
    if (typeof productId !== 'number' || (event.to !== 'approved' && event.to !== 'rejected')) return null;
    const [product, stores] = await Promise.all([
      this.products.findForStore(event.storeId, productId),
      this.sellers.storesForReview([event.storeId]),
    ]);
    const store = stores.get(event.storeId);
    if (!product || !store?.seller.email) return null;
    return {
      id: `product_review.product-${product.id}.${event.id}`,
      kind: 'product_review',
      store: { id: store.id, name: store.name, brand: store.brand, test: store.test },
      seller: { name: store.seller.name, email: store.seller.email },
      product: { pid: product.pid, name: product.name },
      decision: event.to,
      // The reason of this decision, unless the product was submitted and decided again since.
      reason: product.reviewStatus === event.to ? product.reviewReason : null,
      link: `${this.config.urls.web}/products/${product.pid}`,
    };
  }
}
