import type { EntityManager } from 'typeorm';

/**
 * Emitted (awaited, `emitAsync`) inside the transaction that deletes a product, so a module that
 * keeps rows pointing at products (order bumps) can remove them in the same transaction.
 */
export class ProductDeletedEvent {
  static readonly NAME = 'catalog.product_deleted';

  constructor(
    readonly storeId: number,
    readonly productId: number,
    readonly productPid: string,
    readonly manager: EntityManager,
  ) {}
}
