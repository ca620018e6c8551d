import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Cents, toCents } from '../../../common/money';
import { knownTotal, PageRequest } from '../../../common/pagination/pagination';
import { PreparedStatement } from '../../../database/prepared-statements';
import type { OrderStatus } from '../../billing/orders/order-status';

/** Orders that count as sales: approved once, whether or not refunded since (decisions §5, §7). */
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

/**
 * Read-only view of billing's orders and customers, for the catalog's questions ("does this product
 * have sales?", "who subscribed to this plan?"). It never writes: orders belong to billing.
 */
@Injectable()
export class SalesRepository {
  private readonly subscribers: { page: PreparedStatement; count: PreparedStatement };

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.subscribers = {
      page: new PreparedStatement(
        dataSource,
        `SELECT o.order_number, o.amount, o.currency, o.status, o.created_at, o.updated_at,
                c.name AS customer_name, c.email AS customer_email, c.mobile_number AS customer_mobile_number
           FROM orders o
           JOIN customers c ON c.id = o.customer_id
          WHERE o.plan_id = $1 AND o.store_id = $2 AND o.${IS_SALE}
          ORDER BY o.created_at DESC, o.id DESC
          LIMIT $3 OFFSET $4`,
      ),
      // Every order has its customer (created with it, never deleted), so the count needs no join
      // to customers: an index-only scan of the partial index of sales.
      count: new PreparedStatement(
        dataSource,
        `SELECT count(*)::int AS total FROM orders o WHERE o.plan_id = $1 AND o.store_id = $2 AND o.${IS_SALE}`,
      ),
    };
  }

  private manager(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  /** A sale of the product itself, or of the product added to another order as an order bump. */
  async productHasSales(storeId: number, productId: number, manager?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await this.manager(manager).query(
      `SELECT 1 FROM orders o
        WHERE o.store_id = $1 AND o.product_id = $2 AND o.status = ANY($3)
       UNION ALL
       SELECT 1 FROM order_bump_items i JOIN orders o ON o.id = i.order_id
        WHERE o.store_id = $1 AND i.product_id = $2 AND o.status = ANY($3)
       LIMIT 1`,
      [storeId, productId, SALE_STATUSES],
    );
    return rows.length > 0;
  }

  async planHasSales(storeId: number, planId: number, manager?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await this.manager(manager).query(
      `SELECT 1 FROM orders WHERE store_id = $1 AND plan_id = $2 AND ${IS_SALE} LIMIT 1`,
      [storeId, planId],
    );
    return rows.length > 0;
  }

  /**
   * One page of the plan's sales, newest first, read in the order of the partial index
   * (plan_id, store_id, created_at, id) of sales, and their total. The total is counted only when
   * the page does not tell it: a short page (or an empty first one) is the end of the list.
   */
  async subscribersPage(storeId: number, planId: number, page: PageRequest): Promise<{ rows: SubscriberRow[]; total: number }> {
    const rows = await this.subscribers.page.rows<Record<string, string | Date>>([planId, storeId, page.perPage, page.offset]);
    const total = knownTotal(rows.length, page) ?? (await this.countSales(storeId, planId));
    return {
      total,
      rows: rows.map((row) => ({
        orderNumber: row.order_number as string,
        amount: toCents(row.amount as string),
        currency: (row.currency as string).trim(),
        status: row.status as OrderStatus,
        customer: {
          name: row.customer_name as string,
          email: row.customer_email as string,
          mobileNumber: row.customer_mobile_number as string,
        },
        createdAt: new Date(row.created_at),
        updatedAt: new Date(row.updated_at),
      })),
    };
  }

  private async countSales(storeId: number, planId: number): Promise<number> {
    const rows = await this.subscribers.count.rows<{ total: number }>([planId, storeId]);
    return rows[0].total;
  }
}
