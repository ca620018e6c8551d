import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, QueryFailedError, SelectQueryBuilder } from 'typeorm';
import { knownTotal, PageRequest } from '../../../common/pagination/pagination';
import { turnLoader } from '../../../database/batch';
import { PreparedStatement } from '../../../database/prepared-statements';
import { EntityColumns, offsets, PickedColumns } from '../../../database/entity-sql';
import type { CouponUseStatement } from '../../discounts';
import { Customer } from '../customers/customer.entity';
import { Subscription } from '../subscriptions/subscription.entity';
import { PaymentAttempt } from '../payments/payment-attempt.entity';
import { LicenseKey } from '../licenses/license-key.entity';
import { OrderBumpItem } from './order-bump-item.entity';
import {
  ORDER_SUMMARY_COLUMNS,
  ORDER_VIEW_COLUMNS,
  OrderSummaryFields,
  OrderView,
  ShownLicenseKey,
} from './order.mapper';
import type { OrderStatus } from './order-status';
import { Order, ORDER_SINGLE_USE_COUPON_INDEX } from './order.entity';

/** An order's view as billing reads it: all but the product and plan, which the catalog shows. */
export type OrderBillingView = Omit<OrderView, 'product' | 'plan'> & { productId: number; planId: number | null };

/** How writing a checkout ended: the order, or why the database refused it. */
export type CheckoutWrite =
  | { order: Pick<Order, 'id' | 'orderNumber'>; refused?: undefined }
  /** No use of the coupon was left when its UPDATE ran, or the customer holds it (single use). */
  | { order?: undefined; refused: 'exhausted' | 'used_by_customer' };

export interface OrderFilters {
  status?: OrderStatus;
  /** The ids of the products the `product` filter names (catalog's `productIdsByRef`). */
  productIds?: number[];
  customerId?: number;
  email?: string;
}

@Injectable()
export class OrdersRepository {
  private readonly columns: EntityColumns<Order>;
  private readonly related: {
    customers: EntityColumns<Customer>;
    subscriptions: EntityColumns<Subscription>;
    bumps: EntityColumns<OrderBumpItem>;
    payments: EntityColumns<PaymentAttempt>;
    licenseKeys: EntityColumns<LicenseKey>;
  };
  /** What `GET /v1/orders/{id}` shows of each row (ORDER_VIEW_COLUMNS), in select-list order. */
  private readonly shown: {
    order: PickedColumns<Order, (typeof ORDER_VIEW_COLUMNS.order)[number]>;
    customer: PickedColumns<Customer, (typeof ORDER_VIEW_COLUMNS.customer)[number]>;
    subscription: PickedColumns<Subscription, (typeof ORDER_VIEW_COLUMNS.subscription)[number]>;
    bump: PickedColumns<OrderBumpItem, (typeof ORDER_VIEW_COLUMNS.bump)[number]>;
    payment: PickedColumns<PaymentAttempt, (typeof ORDER_VIEW_COLUMNS.payment)[number]>;
    licenseKey: PickedColumns<LicenseKey, (typeof ORDER_VIEW_COLUMNS.licenseKey)[number]>;
  };
  /** What a new checkout session answers with. */
  private readonly created: PickedColumns<Order, 'id' | 'orderNumber'>;
  /** What a customer's order list shows of an order (the OpenAPI description). */
  private readonly summary: PickedColumns<Order, (typeof ORDER_SUMMARY_COLUMNS)[number]>;
  private readonly statements: {
    viewByIdOrNumber: PreparedStatement;
    viewByNumber: PreparedStatement;
    eventRows: PreparedStatement;
    lockById: PreparedStatement;
    byPayTokenHash: PreparedStatement;
    bumpItemsOf: PreparedStatement;
    customerOrders: { page: PreparedStatement; count: PreparedStatement };
    customerOrdersOfStatus: { page: PreparedStatement; count: PreparedStatement };
    holdsCoupon: PreparedStatement;
  };

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    const orders = (this.columns = new EntityColumns(dataSource, Order));
    const related = (this.related = {
      customers: new EntityColumns(dataSource, Customer),
      subscriptions: new EntityColumns(dataSource, Subscription),
      bumps: new EntityColumns(dataSource, OrderBumpItem),
      payments: new EntityColumns(dataSource, PaymentAttempt),
      licenseKeys: new EntityColumns(dataSource, LicenseKey),
    });
    // The bumps come back as JSON with the column names as keys; price as text, so cents stay exact.
    const bumpsJson =
      `(SELECT json_agg(json_build_object('id', b.id, 'order_id', b.order_id, 'product_id', b.product_id, ` +
      `'product_pid', b.product_pid, 'name', b.name, 'price', b.price::text) ORDER BY b.id) ` +
      `FROM ${related.bumps.table} b WHERE b.order_id = o.id) AS "bumps"`;
    const relatedSelect = `${related.customers.select('c')}, ${related.subscriptions.select('s')}, ${bumpsJson}`;
    const relatedJoins =
      `LEFT JOIN ${related.customers.table} c ON c.id = o.customer_id ` +
      `LEFT JOIN ${related.subscriptions.table} s ON s.id = o.subscription_id `;
    const shown = (this.shown = {
      order: orders.pick(...ORDER_VIEW_COLUMNS.order),
      customer: related.customers.pick(...ORDER_VIEW_COLUMNS.customer),
      subscription: related.subscriptions.pick(...ORDER_VIEW_COLUMNS.subscription),
      bump: related.bumps.pick(...ORDER_VIEW_COLUMNS.bump),
      payment: related.payments.pick(...ORDER_VIEW_COLUMNS.payment),
      licenseKey: related.licenseKeys.pick(...ORDER_VIEW_COLUMNS.licenseKey),
    });
    const licenseKeysOf = (where: string) =>
      `SELECT json_agg(${shown.licenseKey.jsonArray('k')} ORDER BY k.id) FROM ${related.licenseKeys.table} k WHERE ${where}`;
    // The keys it delivered; a renewal delivers none of its own and shows its subscription's.
    const licenseKeys =
      `COALESCE((${licenseKeysOf('k.order_id = o.id')}), ` +
      `(${licenseKeysOf('o.subscription_id IS NOT NULL AND k.subscription_id = o.subscription_id')}))`;
    // The whole row as one JSON array: pg then describes and parses one column instead of 44
    // (describing them cost it about 20 µs a query), and JSON.parse reads the values. The bumps and
    // the payment attempts (newest first) come in the same statement: one round trip per read.
    const view =
      `SELECT json_build_array(${shown.order.jsonValues('o')}, o.product_id, o.plan_id, ` +
      `${shown.customer.jsonValues('c')}, ${shown.subscription.jsonValues('s')}, ` +
      `(SELECT json_agg(${shown.bump.jsonArray('b')} ORDER BY b.id) FROM ${related.bumps.table} b WHERE b.order_id = o.id), ` +
      `(SELECT json_agg(${shown.payment.jsonArray('pa')} ORDER BY pa.created_at DESC, pa.id DESC) ` +
      `FROM ${related.payments.table} pa WHERE pa.order_id = o.id), ${licenseKeys}) ` +
      `FROM ${orders.table} o ${relatedJoins}WHERE o.store_id = $1 AND `;
    const bumpColumns = related.bumps.select('b', '');
    const summary = (this.summary = orders.pick(...ORDER_SUMMARY_COLUMNS));
    this.created = orders.pick('id', 'orderNumber');
    // The store's customer and one page of its orders: one row of nulls after the customer's id
    // when the page is empty, no row when the store has no such customer.
    const customerOrders = (status: string) => ({
      page: new PreparedStatement(
        dataSource,
        `SELECT c.id, ${summary.select('o')} FROM ${related.customers.table} c LEFT JOIN LATERAL (` +
          `SELECT ${summary.select('o')} FROM ${orders.table} o WHERE o.customer_id = c.id${status ? ` AND o.status = $5` : ''} ` +
          `ORDER BY o.created_at DESC, o.id DESC LIMIT $3 OFFSET $4) o ON true WHERE c.store_id = $1 AND c.id = $2`,
      ),
      count: new PreparedStatement(
        dataSource,
        `SELECT count(*)::int AS total FROM ${orders.table} o WHERE o.customer_id = $1${status ? ' AND o.status = $2' : ''}`,
      ),
    });
    this.statements = {
      viewByIdOrNumber: new PreparedStatement(dataSource, `${view}(o.id = $2 OR o.order_number = $3)`),
      viewByNumber: new PreparedStatement(dataSource, `${view}o.order_number = $2`),
      // With the number and transaction id of the order that started the order's subscription: the
      // portal a renewal's payload links to while the renewal itself has no transaction id.
      eventRows: new PreparedStatement(
        dataSource,
        `SELECT ${orders.select('o')}, ${relatedSelect}, ${licenseKeys} AS "license_keys", ` +
          `so.order_number AS "portal_order_number", so.transaction_id AS "portal_transaction_id" ` +
          `FROM ${orders.table} o ${relatedJoins}LEFT JOIN ${orders.table} so ON so.id = s.order_id ` +
          `WHERE o.id = ANY($1)`,
      ),
      lockById: new PreparedStatement(
        dataSource,
        `SELECT ${orders.select('o', '')} FROM ${orders.table} o WHERE o.id = $1 FOR UPDATE`,
      ),
      byPayTokenHash: new PreparedStatement(
        dataSource,
        `SELECT ${orders.select('o', '')} FROM ${orders.table} o WHERE o.pay_token_hash = ANY($1)`,
      ),
      holdsCoupon: new PreparedStatement(
        dataSource,
        `SELECT 1 FROM ${related.customers.table} c JOIN ${orders.table} o ON o.customer_id = c.id ` +
          `WHERE c.store_id = $1 AND c.email = $2 AND o.discount_id = $3 AND o.id <> $4 ` +
          `AND o.status IN ('pending', 'approved') LIMIT 1`,
      ),
      customerOrders: customerOrders(''),
      customerOrdersOfStatus: customerOrders('status'),
      bumpItemsOf: new PreparedStatement(
        dataSource,
        `SELECT ${bumpColumns} FROM ${related.bumps.table} b WHERE b.order_id = $1 ORDER BY b.id ASC`,
      ),
    };
  }

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  /** One `INSERT … RETURNING`: the new order with its id, defaults and timestamps. */
  insert(manager: EntityManager, values: Partial<Order>): Promise<Order> {
    return this.columns.insert(manager, values);
  }

  /**
   * Writes a new checkout session whose rules were judged (OrderFactory): the customer (`customer`:
   * a data-modifying statement run for the rows of its `from`, returning the customer's `id`) and
   * the order, in one statement, without a transaction's round trips. With a coupon, the statement
   * first takes its use (`couponUse`, discounts' conditional UPDATE, its parameter the coupon's id)
   * and writes the customer and order only when it took one: the coupon's row is locked from that
   * UPDATE to this statement's commit only. A second pending or approved order of one customer with
   * a single-use coupon breaks the orders' unique index and writes nothing.
   */
  async insertCheckout(
    values: Partial<Order>,
    customer: (from: string) => { key: string; text: string; params: unknown[] },
    couponUse: ((id: string) => CouponUseStatement) | null,
  ): Promise<CheckoutWrite> {
    const upsert = customer(couponUse ? 'coupon' : 'one');
    const params: unknown[] = [...upsert.params];
    const use = couponUse ? `coupon AS (${couponUse(`$${params.push(values.discountId)}`).text}), ` : '';
    try {
      const { inserted } = await this.columns.insertWith(
        this.dataSource.manager,
        values,
        {
          key: `checkout:${upsert.key}:${couponUse ? 'coupon' : ''}`,
          with: `one AS (SELECT 1), ${use}customer AS (${upsert.text})`,
          params,
          rows: 'customer',
          from: { customerId: 'customer.id' },
          report: { columns: ['1'], from: 'one' },
        },
        this.created,
      );
      return inserted ? { order: inserted } : { refused: 'exhausted' };
    } catch (error) {
      if (isUniqueViolation(error, ORDER_SINGLE_USE_COUPON_INDEX)) return { refused: 'used_by_customer' };
      throw error;
    }
  }

  /**
   * Whether the store's customer with this email holds a pending or approved order with the coupon
   * (its single use, README, *Choices where the contract is silent*). `except` leaves out the order
   * being reopened.
   */
  async customerHoldsCoupon(
    storeId: number,
    email: string,
    discountId: number,
    manager?: EntityManager,
    except: number | null = null,
  ): Promise<boolean> {
    const rows = await this.statements.holdsCoupon.arrays([storeId, email, discountId, except ?? 0], manager);
    return rows.length > 0;
  }

  /**
   * The ids of the store's pending orders of a product or of a plan, locked in id order in
   * `manager`'s transaction (a catalog deletion, `CatalogDeletionsHook`): a payment's claim of one
   * waits for it.
   */
  async lockPendingOf(
    manager: EntityManager,
    storeId: number,
    of: { productId: number } | { planId: number },
  ): Promise<number[]> {
    const rows = await manager
      .createQueryBuilder(Order, 'o')
      .select('o.id')
      .where('o.store_id = :storeId AND o.status = :pending', { storeId, pending: 'pending' })
      .andWhere('planId' in of ? 'o.plan_id = :planId' : 'o.product_id = :productId', of)
      .orderBy('o.id')
      .setLock('pessimistic_write')
      .getMany();
    return rows.map((order) => order.id);
  }

  /** `manager.save` of an order: for one read by `lockById`, an UPDATE of what changed (or nothing). */
  save(manager: EntityManager, order: Order): Promise<Order> {
    return this.columns.saveChanges(manager, order);
  }

  /** `save` of several orders, one statement for those changed alike (a group of payments). */
  saveAll(manager: EntityManager, orders: Order[]): Promise<Order[]> {
    return this.columns.saveChangesAll(manager, orders);
  }

  /** The order row, locked until the caller's transaction ends: concurrent changes queue here. */
  async lockById(manager: EntityManager, id: number): Promise<Order | null> {
    const rows = await this.statements.lockById.rows([id], manager);
    return rows.length ? this.columns.hydrateTracked(rows[0]) : null;
  }

  /** A store's order by numeric id or `order_number` (the OpenAPI description). */
  findOfStore(storeId: number, ref: string, manager?: EntityManager): Promise<Order | null> {
    const qb = this.m(manager).createQueryBuilder(Order, 'o').where('o.store_id = :storeId', { storeId });
    if (/^\d{1,9}$/.test(ref)) qb.andWhere('(o.id = :id OR o.order_number = :ref)', { id: Number(ref), ref });
    else qb.andWhere('o.order_number = :ref', { ref });
    return qb.getOne();
  }

  /**
   * `GET /v1/orders/{id}`: the order and what its representation shows of billing's rows, in one
   * query, with the ids of its product and plan (the catalog shows those: `OrdersService.get`).
   */
  async findViewOfStore(storeId: number, ref: string): Promise<OrderBillingView | null> {
    const numeric = /^\d{1,9}$/.test(ref);
    const [found] = numeric
      ? await this.statements.viewByIdOrNumber.arrays([storeId, Number(ref), ref])
      : await this.statements.viewByNumber.arrays([storeId, ref]);
    if (!found) return null;
    const row = found[0] as unknown[];
    const { order, customer, subscription, bump, payment, licenseKey } = this.shown;
    const at = offsets(order, { length: 2 }, customer, subscription);
    return {
      order: order.read(row, at[0]),
      productId: row[at[1]] as number,
      planId: row[at[1] + 1] as number | null,
      // Every order has its customer (created with it, never deleted).
      customer: customer.read(row, at[2]),
      subscription: subscription.readOptional(row, at[3]),
      bumps: ((row[at[4]] as unknown[][] | null) ?? []).map((values) => bump.read(values)),
      payments: ((row[at[4] + 1] as unknown[][] | null) ?? []).map((values) => payment.read(values)),
      licenseKeys: ((row[at[4] + 2] as unknown[][] | null) ?? []).map((values) => licenseKey.read(values)),
    };
  }

  /**
   * What an order event's payload shows of billing's rows besides the order's affiliate, in one
   * query on the event's transaction (it sees the subscription an approval has just started), for
   * every order asked for together: one answer per id, in order, null for an unknown id (so an
   * order deleted since its event fails only its own read, not the others read with it). Null
   * where a related row is missing, as separate lookups would give. `OrderEventRows` adds the
   * catalog's and the store's.
   */
  async eventRows(
    manager: EntityManager,
    orderIds: readonly number[],
  ): Promise<
    Array<{
      order: Order;
      customer: Customer | null;
      subscription: Subscription | null;
      bumps: OrderBumpItem[];
      licenseKeys: ShownLicenseKey[];
      /** The order that started the subscription, when it has a transaction id (the portal of the subscription). */
      subscriptionPortal: { orderNumber: string; transactionId: string } | null;
    } | null>
  > {
    const rows = await this.statements.eventRows.rows([orderIds], manager);
    const byId = new Map(rows.map((row) => [row.o_id as number, row]));
    return orderIds.map((orderId) => {
      const row = byId.get(orderId);
      if (!row) return null;
      const keys = (row.license_keys as unknown[][] | null) ?? [];
      const portalTransactionId = row.portal_transaction_id as string | null;
      return Object.assign(this.relatedOf(row), {
        order: this.columns.hydrate(row, 'o_'),
        licenseKeys: keys.map((values) => this.shown.licenseKey.read(values)),
        subscriptionPortal: portalTransactionId
          ? { orderNumber: row.portal_order_number as string, transactionId: portalTransactionId }
          : null,
      });
    });
  }

  private relatedOf(row: Record<string, unknown>) {
    const { customers, subscriptions, bumps } = this.related;
    return {
      customer: customers.hydrateOptional(row, 'c_'),
      subscription: subscriptions.hydrateOptional(row, 's_'),
      bumps: ((row.bumps as Array<Record<string, unknown>> | null) ?? []).map((b) => bumps.hydrate(b)),
    };
  }

  /**
   * The order of a pay link. Outside a transaction, the links asked for in one turn of the event
   * loop (a burst of checkouts) are read by one statement.
   */
  async findByPayTokenHash(hash: string, manager?: EntityManager): Promise<Order | null> {
    if (!manager) return this.byPayTokenHash.load(hash);
    return (await this.ordersOfPayTokens([hash], manager))[0];
  }

  private readonly byPayTokenHash = turnLoader<string, Order | null>((hashes) => this.ordersOfPayTokens(hashes));

  private async ordersOfPayTokens(hashes: readonly string[], manager?: EntityManager): Promise<Array<Order | null>> {
    const rows = await this.statements.byPayTokenHash.rows([hashes], manager);
    const byHash = new Map(rows.map((row) => [row.pay_token_hash as string, row]));
    return hashes.map((hash) => {
      const row = byHash.get(hash);
      return row ? this.columns.hydrate(row) : null;
    });
  }

  findById(id: number, manager?: EntityManager): Promise<Order | null> {
    return this.m(manager).findOneBy(Order, { id });
  }

  findByOrderNumber(orderNumber: string, manager?: EntityManager): Promise<Order | null> {
    return this.m(manager).findOneBy(Order, { orderNumber });
  }

  async listOfStore(storeId: number, filters: OrderFilters, page: PageRequest): Promise<[Order[], number]> {
    const qb = this.m().createQueryBuilder(Order, 'o').where('o.store_id = :storeId', { storeId });
    if (filters.status) qb.andWhere('o.status = :status', { status: filters.status });
    if (filters.customerId !== undefined)
      qb.andWhere('o.customer_id = :customerId', { customerId: filters.customerId });
    if (filters.productIds !== undefined)
      qb.andWhere('o.product_id = ANY(:productIds)', { productIds: filters.productIds });
    if (filters.email !== undefined) {
      qb.andWhere(`o.customer_id IN (SELECT c.id FROM customers c WHERE c.store_id = :storeId AND c.email = :email)`, {
        email: filters.email.trim().toLowerCase(),
      });
    }
    return this.page(qb, page);
  }

  /**
   * A store's customer's orders as their summaries, newest first, read in the order of the
   * (customer_id[, status], created_at, id) indexes, in one query with the check that the store has
   * that customer (null when not); counted only when the page does not tell the total (see knownTotal).
   */
  async summariesOfCustomer(
    storeId: number,
    customerId: number,
    status: OrderStatus | undefined,
    page: PageRequest,
  ): Promise<[OrderSummaryFields[], number] | null> {
    const { page: pageOf, count } = status ? this.statements.customerOrdersOfStatus : this.statements.customerOrders;
    const params: unknown[] = [storeId, customerId, page.perPage, page.offset];
    if (status) params.push(status);
    const rows = await pageOf.arrays(params);
    if (!rows.length) return null;
    const orders = rows[0][1] === null ? [] : rows.map((row) => this.summary.read(row, 1));
    const known = knownTotal(orders.length, page);
    if (known !== null) return [orders, known];
    const [{ total }] = await count.rows<{ total: number }>(status ? [customerId, status] : [customerId]);
    return [orders, total];
  }

  private page(qb: SelectQueryBuilder<Order>, page: PageRequest): Promise<[Order[], number]> {
    return qb
      .orderBy('o.created_at', 'DESC')
      .addOrderBy('o.id', 'DESC')
      .skip(page.offset)
      .take(page.perPage)
      .getManyAndCount();
  }

  async bumpItemsOf(orderId: number, manager?: EntityManager): Promise<OrderBumpItem[]> {
    const rows = await this.statements.bumpItemsOf.rows([orderId], manager);
    return rows.map((row) => this.related.bumps.hydrate(row));
  }

  async bumpItemsOfOrders(orderIds: number[]): Promise<Map<number, OrderBumpItem[]>> {
    const out = new Map<number, OrderBumpItem[]>(orderIds.map((id) => [id, []]));
    if (!orderIds.length) return out;
    const rows = await this.m().find(OrderBumpItem, { where: { orderId: In(orderIds) }, order: { id: 'ASC' } });
    for (const row of rows) out.get(row.orderId)?.push(row);
    return out;
  }

  async setPayTokenHash(manager: EntityManager, orderId: number, payTokenHash: string): Promise<void> {
    await manager.update(Order, { id: orderId }, { payTokenHash });
  }

  /** Merges `utm_*` values into the order's tracking, only while it is pending. */
  async mergeTracking(orderId: number, tracking: Record<string, string>): Promise<void> {
    await this.m()
      .createQueryBuilder()
      .update(Order)
      .set({ tracking: () => 'tracking || :tracking::jsonb' })
      .where("id = :orderId AND status = 'pending'", { orderId })
      .setParameter('tracking', JSON.stringify(tracking))
      .execute();
  }

  /** Replaces the bumps of an order (a new payment attempt chooses them again). */
  async replaceBumpItems(
    manager: EntityManager,
    orderId: number,
    items: Array<Omit<OrderBumpItem, 'id' | 'orderId'>>,
  ): Promise<OrderBumpItem[]> {
    await manager.delete(OrderBumpItem, { orderId });
    if (!items.length) return [];
    return manager.save(
      OrderBumpItem,
      items.map((item) => manager.create(OrderBumpItem, { ...item, orderId })),
    );
  }
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driverError = error.driverError as { code?: string; constraint?: string };
  return driverError.code === '23505' && driverError.constraint === constraint;
}
