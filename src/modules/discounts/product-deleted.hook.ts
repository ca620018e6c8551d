import { Injectable, OnModuleInit } from '@nestjs/common';
import { DomainEvents } from '../../common/events/domain-events';
import { PRODUCT_DELETED } from '../catalog';
import { DiscountsRepository } from './discounts.repository';

/**
 * A deleted product leaves every discount's `product_ids` in the transaction that deletes it, so
 * no discount ever names a product that is gone (a PATCH sending the ids back would be 422), and a
 * discount whose last product it was becomes inactive rather than a discount for every product
 * (README of discounts, *A deleted product*). The in-transaction hook, as the catalog's own rows
 * (files, plans, bumps) go in that transaction too: one UPDATE of the discounts' own table, no network.
 */
@Injectable()
export class DiscountsProductDeletedHook implements OnModuleInit {
  constructor(
    private readonly events: DomainEvents,
    private readonly discounts: DiscountsRepository,
  ) {}

  onModuleInit(): void {
    this.events.inTransaction([PRODUCT_DELETED], (event, manager) =>
      this.discounts.dropProduct(manager, event.storeId, event.refs.productId!),
    );
  }
}
