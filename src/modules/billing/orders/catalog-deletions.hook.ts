import { Injectable, OnModuleInit } from '@nestjs/common';
import { DomainEvents } from '../../../common/events/domain-events';
import { ConflictError, InProgressError } from '../../../common/errors/app-error';
import { PLAN_DELETED, PLAN_HAS_SALES, PRODUCT_DELETED, PRODUCT_HAS_SALES } from '../../catalog';
import { PaymentAttemptsRepository } from '../payments/payment-attempts.repository';
import { SalesRepository } from '../sales/sales.repository';
import { OrdersRepository } from './orders.repository';

/**
 * A product or plan deleted (catalog's `product.deleted` and `plan.deleted`, in the deleting
 * transaction) never goes while one of its checkouts is being paid (billing README, *A product or
 * plan deleted while it is being paid*). Its pending orders are locked first, so a payment's claim
 * of one either came before, and its attempt is seen here (409 `A payment is already in
 * progress.`: that payment may become a sale, which the product or plan must outlive), or waits for
 * this transaction and then finds the plan gone before charging (`PaymentsService.pay`). A sale
 * committed while the locks were awaited (after catalog's own check) is found by asking again: 409,
 * as for any sale. The pending orders themselves are left as they are: their links are 404 from now on.
 *
 * Runs before the other handlers of these events, so the orders are locked before discounts' rows,
 * in the order a payment takes them.
 */
@Injectable()
export class CatalogDeletionsHook implements OnModuleInit {
  constructor(
    private readonly events: DomainEvents,
    private readonly orders: OrdersRepository,
    private readonly attempts: PaymentAttemptsRepository,
    private readonly sales: SalesRepository,
  ) {}

  onModuleInit(): void {
    this.events.inTransaction(
      [PRODUCT_DELETED, PLAN_DELETED],
      async (event, manager) => {
        const plan = event.type === PLAN_DELETED;
        const id = plan ? event.refs.planId! : event.refs.productId!;
        const pending = await this.orders.lockPendingOf(
          manager,
          event.storeId,
          plan ? { planId: id } : { productId: id },
        );
        if (await this.attempts.anyPaying(pending, manager))
          throw new InProgressError('A payment is already in progress.');
        if (
          plan
            ? await this.sales.planHasSales(event.storeId, id, manager)
            : await this.sales.productHasSales(event.storeId, id, manager)
        ) {
          throw new ConflictError(plan ? PLAN_HAS_SALES : PRODUCT_HAS_SALES);
        }
      },
      { first: true },
    );
  }
}
