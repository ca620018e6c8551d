import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Cents, toCents } from '../../../common/money';
import { knownTotal, PageRequest } from '../../../common/pagination/pagination';
import { PreparedStatement } from '../../../database/prepared-statements';
import type { OrderStatus } from '../../billing/orders/order-status';
import { CatalogRef } from '../catalog-refs';

/** Orders that count as sales: approved once, whether or not refunded since (decisions §5, §7). */
const SALE_STATUSES: OrderStatus[] = ['approved', 'refunded'];
/**
 * The same as SQL literals, so the planner can use the partial index of a plan's sales (an
 * `= ANY($n)` parameter cannot be matched against an index predicate).
 */
const IS_SALE = `status IN (${SALE_STATUSES.map((s) => `'${s}'`).join(', ')})`;

/**
 * Spec §4.9 lists subscribers, not payments: a subscription's renewal orders (period 2 on,
 * decisions §11) are sales of the plan but not new subscribers, so each subscription shows once,
 * as the order that started it.
 */
const NOT_A_RENEWAL = `(o.subscription_period IS NULL OR o.subscription_period = 1)`;

export interface SubscriberRow {
  orderNumber: string;
  amount: Cents;
  currency: string;
  status: OrderStatus;
  customer: { name: string; email: string; mobileNumber: string };
  createdAt: Date;
  updatedAt: Date;
}

/** A plan as its subscriber list shows it (spec 4.9): its public id, name and product's pid. */
export interface SubscribedPlan {
  plan: { id: number; planId: string; name: string };
  productPid: string;
}

/** A row of the subscribers statement, in select-list order (the sale's values null when there is none). */
type SubscribersRow = [
  planId: number,
  publicId: string,
  name: string,
  productPid: string,
  orderNumber: string,
  amount: string,
  currency: string,
  status: OrderStatus,
  createdAt: Date,
  updatedAt: Date,
  customerName: string,
  customerEmail: string,
  customerMobileNumber: string,
];

/**
 * Read-only view of billing's orders and customers, for the catalog's questions ("does this product
 * have sales?", "who subscribed to this plan?"). It never writes: orders belong to billing.
 */
@Injectable()
export class SalesRepository {
  private readonly subscribers: { byId: PreparedStatement; byPublicId: PreparedStatement; count: PreparedStatement };

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    // The store's plan (by id or plan_id), its product's pid, and one page of its sales: one row
    // per sale, or one with nulls after the plan's columns when the page is empty; no row when the
    // store has no such plan. Product pids are unique per store; '' if the product is gone.
    const page = (planMatch: string) =>
      new PreparedStatement(
        dataSource,
        `SELECT pl.id, pl.plan_id, pl.name, COALESCE(p.pid, ''),
                s.order_number, s.amount, s.currency, s.status, s.created_at, s.updated_at,
                s.customer_name, s.customer_email, s.customer_mobile_number
           FROM plans pl
           LEFT JOIN products p ON p.id = pl.product_id AND p.store_id = pl.store_id
           LEFT JOIN LATERAL (
             SELECT o.order_number, o.amount, o.currency, o.status, o.created_at, o.updated_at,
                    c.name AS customer_name, c.email AS customer_email, c.mobile_number AS customer_mobile_number
               FROM orders o
               JOIN customers c ON c.id = o.customer_id
              WHERE o.plan_id = pl.id AND o.store_id = pl.store_id AND o.${IS_SALE} AND ${NOT_A_RENEWAL}
              ORDER BY o.created_at DESC, o.id DESC
              LIMIT $3 OFFSET $4
           ) s ON true
          WHERE pl.store_id = $1 AND ${planMatch}`,
      );
    this.subscribers = {
      byId: page('pl.id = $2'),
      byPublicId: page('pl.plan_id = $2'),
      // Every order has its customer (created with it, never deleted), so the count needs no join
      // to customers: a scan of the partial index of sales.
      count: new PreparedStatement(
        dataSource,
        `SELECT count(*)::int AS total FROM orders o WHERE o.plan_id = $1 AND o.store_id = $2 AND o.${IS_SALE} AND ${NOT_A_RENEWAL}`,
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
   * The store's plan and one page of its sales, newest first, read in the order of the partial
   * index (plan_id, store_id, created_at, id) of sales, in one query; null when the store has no
   * such plan. The total is counted only when the page does not tell it: a short page (or an empty
   * first one) is the end of the list.
   */
  async subscribersOfPlan(
    storeId: number,
    ref: CatalogRef,
    page: PageRequest,
  ): Promise<{ view: SubscribedPlan; rows: SubscriberRow[]; total: number } | null> {
    const statement = 'id' in ref ? this.subscribers.byId : this.subscribers.byPublicId;
    const found = (await statement.arrays([storeId, 'id' in ref ? ref.id : ref.publicId, page.perPage, page.offset])) as SubscribersRow[];
    if (!found.length) return null;
    const [planId, publicId, name, productPid, firstSale] = found[0];
    const sales = firstSale === null ? [] : found;
    const rows = sales.map(([, , , , orderNumber, amount, currency, status, createdAt, updatedAt, customerName, email, mobileNumber]) => ({
      orderNumber,
      amount: toCents(amount),
      currency: currency.trim(),
      status,
      customer: { name: customerName, email, mobileNumber },
      createdAt,
      updatedAt,
    }));
    const total = knownTotal(rows.length, page) ?? (await this.countSales(storeId, planId));
    return { view: { plan: { id: planId, planId: publicId, name }, productPid }, rows, total };
  }

  private async countSales(storeId: number, planId: number): Promise<number> {
    const rows = await this.subscribers.count.rows<{ total: number }>([planId, storeId]);
    return rows[0].total;
  }
}
