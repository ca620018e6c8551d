import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Cents } from '../../../common/money';
import { knownTotal, PageRequest } from '../../../common/pagination/pagination';
import { PreparedStatement } from '../../../database/prepared-statements';
import { EntityColumns, PickedColumns } from '../../../database/entity-sql';
import { buyerOf } from '../customers/buyer';
import { Customer } from '../customers/customer.entity';
import { Order } from '../orders/order.entity';
import { ORDER_SUMMARY_COLUMNS } from '../orders/order.mapper';
import type { OrderStatus } from '../orders/order-status';

/** Orders that count as sales: approved once, whether or not refunded since (the errors of the OpenAPI description; README, *Choices where the contract is silent*). */
const SALE_STATUSES: OrderStatus[] = ['approved', 'refunded'];
/**
 * The same as SQL literals, so the planner can use the partial index of a plan's sales (an
 * `= ANY($n)` parameter cannot be matched against an index predicate).
 */
const IS_SALE = `status IN (${SALE_STATUSES.map((s) => `'${s}'`).join(', ')})`;

export interface SubscriberRow {
  orderNumber: string;
  amount: Cents;
  currency: string;
  status: OrderStatus;
  customer: { name: string; email: string; mobileNumber: string };
  createdAt: Date;
  updatedAt: Date;
}

/** A plan as its subscriber list shows it (OpenAPI: `GET /v1/plans/{id}/subscribers`): its public id, name and product's pid. */
export interface SubscribedPlan {
  plan: { id: number; planId: string; name: string };
  productPid: string;
}

/**
 * What a plan's subscriber list shows of each sale, in select-list order: the order with the buyer
 * as given with it (name and mobile number stay on the order when a later order of the same email
 * gives others), and its customer. Read by position through `PickedColumns`, so the statement and
 * its reader come from the same lists and the entities' column types and transformers (money as
 * cents).
 */
export const SUBSCRIBER_COLUMNS = {
  order: [...ORDER_SUMMARY_COLUMNS.filter((column) => column !== 'id'), 'customerName', 'customerMobileNumber'],
  customer: ['name', 'email', 'mobileNumber'],
} as const satisfies {
  order: ReadonlyArray<keyof Order>;
  customer: ReadonlyArray<keyof Customer>;
};

/**
 * Billing's read-only answers about its orders for other modules: the catalog's "does this product
 * have sales?" and "who subscribed to this plan?", identity's "has this store an order?" and test
 * mode's "which orders has this store?". Others ask here rather than read billing's tables. It
 * never writes.
 */
@Injectable()
export class SalesRepository {
  private readonly subscribers: { page: PreparedStatement; count: PreparedStatement };
  private readonly statements: {
    productHasSales: PreparedStatement;
    planHasSales: PreparedStatement;
    orderIdsOfStore: PreparedStatement;
    storesWithOrders: PreparedStatement;
  };
  private readonly shown: {
    order: PickedColumns<Order, (typeof SUBSCRIBER_COLUMNS.order)[number]>;
    customer: PickedColumns<Customer, (typeof SUBSCRIBER_COLUMNS.customer)[number]>;
  };

  constructor(@InjectDataSource() dataSource: DataSource) {
    const tables = {
      orders: new EntityColumns(dataSource, Order),
      customers: new EntityColumns(dataSource, Customer),
    };
    const shown = (this.shown = {
      order: tables.orders.pick(...SUBSCRIBER_COLUMNS.order),
      customer: tables.customers.pick(...SUBSCRIBER_COLUMNS.customer),
    });
    // One page of the plan's sales with their customers: every order of the plan ever approved
    // (approved or refunded), a renewal order too, as `GET /v1/plans/{id}/subscribers` is described. The sale's order and customer columns
    // are distinct names.
    this.subscribers = {
      page: new PreparedStatement(
        dataSource,
        `SELECT ${shown.order.select('o')}, ${shown.customer.select('c')} FROM ${tables.orders.table} o ` +
          `JOIN ${tables.customers.table} c ON c.id = o.customer_id ` +
          `WHERE o.plan_id = $1 AND o.store_id = $2 AND o.${IS_SALE} ` +
          `ORDER BY o.created_at DESC, o.id DESC LIMIT $3 OFFSET $4`,
      ),
      // Every order has its customer (created with it, never deleted), so the count needs no join
      // to customers: an index-only scan of the partial index of sales.
      count: new PreparedStatement(
        dataSource,
        `SELECT count(*)::int AS total FROM orders o WHERE o.plan_id = $1 AND o.store_id = $2 AND o.${IS_SALE}`,
      ),
    };
    this.statements = {
      productHasSales: new PreparedStatement(
        dataSource,
        `SELECT 1 FROM orders o
          WHERE o.store_id = $1 AND o.product_id = $2 AND o.status = ANY($3)
         UNION ALL
         SELECT 1 FROM order_bump_items i JOIN orders o ON o.id = i.order_id
          WHERE o.store_id = $1 AND i.product_id = $2 AND o.status = ANY($3)
         LIMIT 1`,
      ),
      planHasSales: new PreparedStatement(
        dataSource,
        `SELECT 1 FROM orders WHERE store_id = $1 AND plan_id = $2 AND ${IS_SALE} LIMIT 1`,
      ),
      orderIdsOfStore: new PreparedStatement(dataSource, `SELECT id FROM orders WHERE store_id = $1 ORDER BY id`),
      storesWithOrders: new PreparedStatement(
        dataSource,
        `SELECT s.id FROM unnest($1::int[]) AS s(id)
          WHERE EXISTS (SELECT 1 FROM orders o WHERE o.store_id = s.id)`,
      ),
    };
  }

  /** A sale of the product itself, or of the product added to another order as an order bump. */
  async productHasSales(storeId: number, productId: number, manager?: EntityManager): Promise<boolean> {
    const rows = await this.statements.productHasSales.rows([storeId, productId, SALE_STATUSES], manager);
    return rows.length > 0;
  }

  async planHasSales(storeId: number, planId: number, manager?: EntityManager): Promise<boolean> {
    const rows = await this.statements.planHasSales.rows([storeId, planId], manager);
    return rows.length > 0;
  }

  /**
   * The ids of the store's orders, read in the caller's transaction: test mode's reset removes the
   * rows of other tables that hang on an order by `order_id` without a `store_id` of their own.
   */
  async orderIdsOfStore(storeId: number, manager?: EntityManager): Promise<number[]> {
    const rows = await this.statements.orderIdsOfStore.rows<{ id: number }>([storeId], manager);
    return rows.map((row) => row.id);
  }

  /**
   * Which of these stores have an order, whatever its status: identity's store settings fix the
   * currency from a store's first order (orders keep the currency they were made in).
   */
  async storesWithOrders(storeIds: number[], manager?: EntityManager): Promise<Set<number>> {
    if (!storeIds.length) return new Set();
    const rows = await this.statements.storesWithOrders.rows<{ id: number }>([storeIds], manager);
    return new Set(rows.map((row) => row.id));
  }

  /**
   * One page of the plan's sales, newest first, read in the order of the partial index (plan_id,
   * store_id, created_at, id) of sales. The catalog found the plan first (it owns plans). The total
   * is counted only when the page does not tell it: a short page (or an empty first one) is the end.
   */
  async subscribersOfPlan(
    storeId: number,
    planId: number,
    page: PageRequest,
  ): Promise<{ rows: SubscriberRow[]; total: number }> {
    const found = await this.subscribers.page.arrays([planId, storeId, page.perPage, page.offset]);
    const { order, customer } = this.shown;
    const rows = found.map((row): SubscriberRow => {
      const sale = order.read(row, 0);
      return {
        orderNumber: sale.orderNumber,
        amount: sale.amount,
        currency: sale.currency,
        status: sale.status,
        customer: subscriberOf(sale, customer.read(row, order.length)),
        createdAt: sale.createdAt,
        updatedAt: sale.updatedAt,
      };
    });
    const total = knownTotal(rows.length, page) ?? (await this.countSales(storeId, planId));
    return { rows, total };
  }

  private async countSales(storeId: number, planId: number): Promise<number> {
    const rows = await this.subscribers.count.rows<{ total: number }>([planId, storeId]);
    return rows[0].total;
  }
}

/** The subscriber as the order that started the subscription gives them (billing README, `checkout/`: "An order keeps its buyer"). */
function subscriberOf(
  sale: Pick<Order, 'customerName' | 'customerMobileNumber'>,
  customer: SubscriberRow['customer'],
): SubscriberRow['customer'] {
  // The list shows no payment number.
  const { name, mobileNumber } = buyerOf(
    { ...sale, customerPaymentNumber: null },
    { ...customer, paymentNumber: null },
  );
  return { name, email: customer.email, mobileNumber };
}
