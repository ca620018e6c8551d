import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { ProductDeletedEvent } from '../catalog/products/product-deleted.event';
import { WebhooksRepository } from './webhooks.repository';

/**
 * A webhook limited to one product (spec §6.1.2) could never fire again once the product is gone,
 * and would read as "every product" with `product: null`; it is deleted with the product.
 */
@Injectable()
export class WebhooksProductDeletedListener {
  constructor(private readonly webhooks: WebhooksRepository) {}

  @OnEvent(ProductDeletedEvent.NAME, { suppressErrors: false })
  onProductDeleted(event: ProductDeletedEvent): Promise<void> {
    return this.webhooks.deleteLimitedToProduct(event.manager, event.storeId, event.productId);
  }
}
