import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { ProductDeletedEvent } from '../products/product-deleted.event';
import { OrderBumpsRepository } from './order-bumps.repository';

/** A deleted product neither offers bumps nor is offered as one; removed in the same transaction. */
@Injectable()
export class OrderBumpsProductDeletedListener {
  constructor(private readonly bumps: OrderBumpsRepository) {}

  @OnEvent(ProductDeletedEvent.NAME, { suppressErrors: false })
  onProductDeleted(event: ProductDeletedEvent): Promise<void> {
    return this.bumps.deleteAllOfProduct(event.manager, event.storeId, event.productId);
  }
}
