import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { Subscription } from './subscription.entity';

@Injectable()
export class SubscriptionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  findOfOrder(orderId: number, manager?: EntityManager): Promise<Subscription | null> {
    return this.m(manager).findOneBy(Subscription, { orderId });
  }

  async findOfOrders(orderIds: number[]): Promise<Map<number, Subscription>> {
    if (!orderIds.length) return new Map();
    const rows = await this.m().findBy(Subscription, { orderId: In(orderIds) });
    return new Map(rows.map((s) => [s.orderId, s]));
  }

  lockOfOrder(manager: EntityManager, orderId: number): Promise<Subscription | null> {
    return manager
      .createQueryBuilder(Subscription, 's')
      .setLock('pessimistic_write')
      .where('s.order_id = :orderId', { orderId })
      .getOne();
  }

  save(manager: EntityManager, subscription: Partial<Subscription>): Promise<Subscription> {
    return manager.save(Subscription, manager.create(Subscription, subscription));
  }
}
