import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PageRequest } from '../../../common/pagination/pagination';
import { CatalogRef } from '../catalog-refs';
import { Plan } from './plan.entity';

@Injectable()
export class PlansRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private manager(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  private where(storeId: number, ref: CatalogRef) {
    return 'id' in ref ? { storeId, id: ref.id } : { storeId, planId: ref.publicId };
  }

  findByRef(storeId: number, ref: CatalogRef, manager?: EntityManager): Promise<Plan | null> {
    return this.manager(manager).findOneBy(Plan, this.where(storeId, ref));
  }

  lockByRef(storeId: number, ref: CatalogRef, manager: EntityManager): Promise<Plan | null> {
    return manager.findOne(Plan, { where: this.where(storeId, ref), lock: { mode: 'pessimistic_write' } });
  }

  listPage(storeId: number, page: PageRequest, manager?: EntityManager): Promise<[Plan[], number]> {
    return this.manager(manager).findAndCount(Plan, {
      where: { storeId },
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: page.offset,
      take: page.perPage,
    });
  }

  listForProduct(storeId: number, productId: number, manager?: EntityManager): Promise<Plan[]> {
    return this.manager(manager).find(Plan, { where: { storeId, productId }, order: { id: 'ASC' } });
  }

  countForProduct(storeId: number, productId: number, manager?: EntityManager): Promise<number> {
    return this.manager(manager).countBy(Plan, { storeId, productId });
  }

  create(values: Partial<Plan>, manager?: EntityManager): Promise<Plan> {
    const m = this.manager(manager);
    return m.save(m.create(Plan, values));
  }

  save(plan: Plan, manager?: EntityManager): Promise<Plan> {
    return this.manager(manager).save(plan);
  }

  async delete(plan: Plan, manager: EntityManager): Promise<void> {
    await manager.delete(Plan, { id: plan.id, storeId: plan.storeId });
  }

  async deleteForProduct(storeId: number, productId: number, manager: EntityManager): Promise<void> {
    await manager.delete(Plan, { storeId, productId });
  }
}
