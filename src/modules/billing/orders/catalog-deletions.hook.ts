import { Injectable, OnModuleInit } from '@nestjs/common';
import { DomainEvents } from '../../../common/events/domain-events';
import { ConflictError } from '../../../common/errors/app-error';
import { PLAN_DELETED, PRODUCT_DELETED } from '../../catalog';
import { newCancellationId } from '../payments/cancellation-id';
import { PaymentAttemptsRepository } from '../payments/payment-attempts.repository';
import { OrderTransitionsService } from './order-transitions.service';
import { OrdersRepository } from './orders.repository';

/**
 * A product or plan deleted (catalog's `product.deleted` and `plan.deleted`, in the deleting
 * transaction) takes its open checkouts with it (billing README, *Open checkouts of a deleted
 * product or plan*): its pending orders are cancelled, each with a transaction id of its own and
 * `order_cancelled`, so no payment can start on an order whose product or plan is gone. While one of
 * them is being paid (an attempt processing or unknown) the deletion is refused, 409 `A payment is
 * already in progress.`: that payment may become a sale, which the product or plan must outlive.
 *
 * The orders are locked first: a payment's claim of one either came before (its attempt is seen
 * here) or waits for this transaction and then finds the order cancelled, charging nothing.
 */
@Injectable()
export class CatalogDeletionsHook implements OnModuleInit {
  constructor(
    private readonly events: DomainEvents,
    private readonly orders: OrdersRepository,
    private readonly attempts: PaymentAttemptsRepository,
    private readonly transitions: OrderTransitionsService,
  ) {}

  onModuleInit(): void {
    this.events.inTransaction([PRODUCT_DELETED, PLAN_DELETED], async (event, manager) => {
      const what = event.type === PLAN_DELETED ? { planId: event.refs.planId! } : { productId: event.refs.productId! };
      const pending = await this.orders.lockPendingNaming(manager, event.storeId, what);
      if (!pending.length) return;
      if (
        await this.attempts.anyPaying(
          pending.map((order) => order.id),
          manager,
        )
      ) {
        throw new ConflictError('A payment is already in progress.');
      }
      await this.transitions.transitionAllLocked(
        manager,
        pending.map((order) => ({ order, to: 'cancelled' as const, details: { transactionId: newCancellationId() } })),
      );
    });
  }
}
