import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, SelectQueryBuilder } from 'typeorm';
import { PageRequest } from '../../../common/pagination/pagination';
import { OrderBumpItem } from './order-bump-item.entity';
import type { OrderStatus } from './order-status';
import { Order } from './order.entity';

export interface OrderFilters {
  status?: OrderStatus;
  /** Product id or `product_pid`. */
  product?: string;
  customerId?: number;
  email?: string;
}

@Injectable()
export class OrdersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  insert(manager: EntityManager, values: Partial<Order>): Promise<Order> {
    return manager.save(Order, manager.create(Order, values));
  }

  save(manager: EntityManager, order: Order): Promise<Order> {
    return manager.save(Order, order);
  }

  /** The order row, locked until the caller's transaction ends: concurrent changes queue here. */
  lockById(manager: EntityManager, id: number): Promise<Order | null> {
    return manager.createQueryBuilder(Order, 'o').setLock('pessimistic_write').where('o.id = :id', { id }).getOne();
  }

  /** A store's order by numeric id or `order_number` (decisions §6). */
  findOfStore(storeId: number, ref: string, manager?: EntityManager): Promise<Order | null> {
    const qb = this.m(manager).createQueryBuilder(Order, 'o').where('o.store_id = :storeId', { storeId });
    if (/^\d{1,9}$/.test(ref)) qb.andWhere('(o.id = :id OR o.order_number = :ref)', { id: Number(ref), ref });
    else qb.andWhere('o.order_number = :ref', { ref });
    return qb.getOne();
  }

  findByPayTokenHash(hash: string, manager?: EntityManager): Promise<Order | null> {
    return this.m(manager).findOneBy(Order, { payTokenHash: hash });
  }

  findByOrderNumber(orderNumber: string, manager?: EntityManager): Promise<Order | null> {
    return this.m(manager).findOneBy(Order, { orderNumber });
  }

  async listOfStore(storeId: number, filters: OrderFilters, page: PageRequest): Promise<[Order[], number]> {
    const qb = this.m().createQueryBuilder(Order, 'o').where('o.store_id = :storeId', { storeId });
    if (filters.status) qb.andWhere('o.status = :status', { status: filters.status });
    if (filters.customerId !== undefined) qb.andWhere('o.customer_id = :customerId', { customerId: filters.customerId });
    if (filters.product !== undefined) {
      qb.andWhere(
        `o.product_id IN (SELECT p.id FROM products p WHERE p.store_id = :storeId AND (p.pid = :product OR p.id::text = :product))`,
        { product: filters.product },
      );
    }
    if (filters.email !== undefined) {
      qb.andWhere(`o.customer_id IN (SELECT c.id FROM customers c WHERE c.store_id = :storeId AND c.email = :email)`, {
        email: filters.email.trim().toLowerCase(),
      });
    }
    return this.page(qb, page);
  }

  listOfCustomer(customerId: number, status: OrderStatus | undefined, page: PageRequest): Promise<[Order[], number]> {
    const qb = this.m().createQueryBuilder(Order, 'o').where('o.customer_id = :customerId', { customerId });
    if (status) qb.andWhere('o.status = :status', { status });
    return this.page(qb, page);
  }

  private page(qb: SelectQueryBuilder<Order>, page: PageRequest): Promise<[Order[], number]> {
    return qb.orderBy('o.created_at', 'DESC').addOrderBy('o.id', 'DESC').skip(page.offset).take(page.perPage).getManyAndCount();
  }

  bumpItemsOf(orderId: number, manager?: EntityManager): Promise<OrderBumpItem[]> {
    return this.m(manager).find(OrderBumpItem, { where: { orderId }, order: { id: 'ASC' } });
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
  async replaceBumpItems(manager: EntityManager, orderId: number, items: Array<Omit<OrderBumpItem, 'id' | 'orderId'>>): Promise<OrderBumpItem[]> {
    await manager.delete(OrderBumpItem, { orderId });
    if (!items.length) return [];
    return manager.save(
      OrderBumpItem,
      items.map((item) => manager.create(OrderBumpItem, { ...item, orderId })),
    );
  }
}
