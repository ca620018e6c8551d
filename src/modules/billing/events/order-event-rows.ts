import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type DataLoader from 'dataloader';
import type { DataSource, EntityManager } from 'typeorm';
import { turnLoader } from '../../../database/batch';
import { TransactionBatch } from '../../../database/transaction-batch';
import { CatalogReads, type Plan, type Product } from '../../catalog';
import { SellersService, type Store } from '../../identity';
import type { Customer } from '../customers/customer.entity';
import type { OrderBumpItem } from '../orders/order-bump-item.entity';
import type { Order } from '../orders/order.entity';
import type { ShownLicenseKey } from '../orders/order.mapper';
import { OrdersRepository } from '../orders/orders.repository';
import type { Subscription } from '../subscriptions/subscription.entity';

/** An order with every row its events and its customer's emails show. */
export interface OrderEventRowSet {
  order: Order;
  product: Product | null;
  plan: Plan | null;
  customer: Customer | null;
  store: Store | null;
  subscription: Subscription | null;
  bumps: OrderBumpItem[];
  /** The license keys it delivered (a renewal: its subscription's). */
  licenseKeys: ShownLicenseKey[];
  /** The order that started its subscription, when that has a transaction id: the subscription's portal. */
  subscriptionPortal: { orderNumber: string; transactionId: string } | null;
}

/**
 * Billing's public read model of an order for its events' payloads and the customer emails: its
 * own rows from billing, its product and plan from the catalog's read port, its store from
 * identity, each module reading only its tables. All three read in `manager`'s transaction, one
 * after another on its connection (a transaction must not wait for a second connection of the pool).
 * The orders' own rows asked for together go in one statement.
 */
@Injectable()
export class OrderEventRows {
  /** The orders' own rows read together: in one transaction (a group of payments' events)… */
  private readonly inTransaction: TransactionBatch<number, OwnRows>;
  /** …or, outside one, in one turn of the event loop (the receipts of a batch of jobs). */
  private readonly outside: DataLoader<number, OwnRows>;

  constructor(
    private readonly orders: OrdersRepository,
    private readonly catalog: CatalogReads,
    private readonly sellers: SellersService,
    @InjectDataSource() dataSource: DataSource,
  ) {
    // An event names an order that exists. In a transaction a missing one fails it (its events with
    // it); outside one, an order deleted since its event (test mode's reset) fails only its own
    // read, not the receipts of the jobs read with it.
    this.inTransaction = new TransactionBatch(dataSource, async (manager, ids) =>
      (await this.orders.eventRows(manager, ids)).map((own, i) => {
        if (!own) throw notFound(ids[i]);
        return own;
      }),
    );
    this.outside = turnLoader(async (ids) =>
      (await this.orders.eventRows(dataSource.manager, ids)).map((own, i) => own ?? notFound(ids[i])),
    );
  }

  async of(manager: EntityManager, orderId: number): Promise<OrderEventRowSet> {
    const inTransaction = manager.queryRunner?.isTransactionActive === true;
    const own = await (inTransaction ? this.inTransaction.load(manager, orderId) : this.outside.load(orderId));
    // Outside a transaction the catalog and identity are asked without a manager: the product and
    // plan of orders read together are then read once (concurrent misses of the catalog cache share
    // one read), and their stores by one statement.
    const shared = inTransaction ? manager : undefined;
    const { product, plan } = await this.catalog.productAndPlan(own.order.productId, own.order.planId, shared);
    const store = await this.sellers.findStore(own.order.storeId, shared);
    return { ...own, product, plan, store };
  }
}

type OwnRows = NonNullable<Awaited<ReturnType<OrdersRepository['eventRows']>>[number]>;

const notFound = (orderId: number) => new Error(`Order ${orderId} not found for its event`);
