import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PageRequest } from '../../../common/pagination/pagination';
import { PreparedStatement } from '../../../database/prepared-statements';
import { CatalogRef } from '../catalog-refs';
import { CatalogCache } from '../reads/catalog-cache';
import { Plan } from './plan.entity';

interface PlanWithProductPidRow {
  id: number;
  plan_id: string;
  name: string;
  product_pid: string;
}

@Injectable()
export class PlansRepository {
  /** The plan with its product's pid, by id and by public id. */
  private readonly withProductPid: { byId: PreparedStatement; byPlanId: PreparedStatement };

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly cache: CatalogCache,
  ) {
    const withProductPid = (where: string) =>
      new PreparedStatement(
        dataSource,
        `SELECT pl.id, pl.plan_id, pl.name, COALESCE(p.pid, '') AS product_pid FROM plans pl ` +
          `LEFT JOIN products p ON p.id = pl.product_id AND p.store_id = pl.store_id ` +
          `WHERE pl.store_id = $1 AND ${where}`,
      );
    this.withProductPid = { byId: withProductPid('pl.id = $2'), byPlanId: withProductPid('pl.plan_id = $2') };
  }

  private manager(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  private where(storeId: number, ref: CatalogRef) {
    return 'id' in ref ? { storeId, id: ref.id } : { storeId, planId: ref.publicId };
  }

  findByRef(storeId: number, ref: CatalogRef, manager?: EntityManager): Promise<Plan | null> {
    return this.manager(manager).findOneBy(Plan, this.where(storeId, ref));
  }

  /** The store's plan with its product's pid ('' if the product is gone), in one query; null when there is none. */
  async findWithProductPid(storeId: number, ref: CatalogRef): Promise<{ plan: Plan; productPid: string } | null> {
    const rows =
      'id' in ref
        ? await this.withProductPid.byId.rows<PlanWithProductPidRow>([storeId, ref.id])
        : await this.withProductPid.byPlanId.rows<PlanWithProductPidRow>([storeId, ref.publicId]);
    if (!rows.length) return null;
    const [row] = rows;
    return {
      plan: Object.assign(new Plan(), { id: row.id, planId: row.plan_id, name: row.name }),
      productPid: row.product_pid,
    };
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

  /** Saves the plan; the read port's kept rows are dropped (CatalogCache). */
  async save(plan: Plan, manager?: EntityManager): Promise<Plan> {
    const saved = await this.manager(manager).save(plan);
    this.cache.changed();
    return saved;
  }

  async delete(plan: Plan, manager: EntityManager): Promise<void> {
    await manager.delete(Plan, { id: plan.id, storeId: plan.storeId });
    this.cache.changed();
  }

  async deleteForProduct(storeId: number, productId: number, manager: EntityManager): Promise<void> {
    await manager.delete(Plan, { storeId, productId });
    this.cache.changed();
  }
}
