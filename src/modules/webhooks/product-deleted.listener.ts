import { Injectable, OnModuleInit } from '@nestjs/common';
import { DomainEvents } from '../../common/events/domain-events';
import { PRODUCT_DELETED } from '../catalog';
import { WebhooksRepository } from './webhooks.repository';

/**
 * A webhook limited to one product (the webhooks of the OpenAPI description) could never fire again once the product is gone,
 * and would read as "every product" with `product: null`; it is deleted after the product's
 * deletion commits (an after-commit listener: idempotent, retried). Until then the API shows it as
 * gone (`WebhooksService` drops a webhook whose product is not found): 404, not listed.
 */
@Injectable()
export class WebhooksProductDeletedListener implements OnModuleInit {
  constructor(
    private readonly events: DomainEvents,
    private readonly webhooks: WebhooksRepository,
  ) {}

  onModuleInit(): void {
    this.events.afterCommit('webhooks-product-deleted', [PRODUCT_DELETED], (event) =>
      this.webhooks.deleteLimitedToProduct(event.storeId, event.refs.productId!),
    );
  }
}
