import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { PageRequest } from '../../../common/pagination/pagination';
import { CatalogRef } from '../catalog-refs';
import { CatalogCache } from '../reads/catalog-cache';
import { Product } from './product.entity';

@Injectable()
export class ProductsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly cache: CatalogCache,
  ) {}

  private manager(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  private where(storeId: number, ref: CatalogRef) {
    return 'id' in ref ? { storeId, id: ref.id } : { storeId, pid: ref.publicId };
  }

  findByRef(storeId: number, ref: CatalogRef, manager?: EntityManager): Promise<Product | null> {
    return this.manager(manager).findOneBy(Product, this.where(storeId, ref));
  }

  /** Row lock for changes that depend on the product's current state (publish, delete, review). */
  lockByRef(storeId: number, ref: CatalogRef, manager: EntityManager): Promise<Product | null> {
    return manager.findOne(Product, { where: this.where(storeId, ref), lock: { mode: 'pessimistic_write' } });
  }

  /** Operator review: by public id across stores. */
  lockByPid(pid: string, manager: EntityManager): Promise<Product | null> {
    return manager.findOne(Product, { where: { pid }, lock: { mode: 'pessimistic_write' } });
  }

  /**
   * The operators' review queue: pending products of every store, oldest change first (the partial
   * index `products_pending_review_idx`). Cross-store on purpose; only the review pages call it.
   */
  listPendingReview(page: PageRequest, manager?: EntityManager): Promise<[Product[], number]> {
    return this.manager(manager).findAndCount(Product, {
      where: { reviewStatus: 'pending' },
      order: { updatedAt: 'ASC', id: 'ASC' },
      skip: page.offset,
      take: page.perPage,
    });
  }

  /** A product by public id across stores, for the operators' review pages. */
  findByPid(pid: string, manager?: EntityManager): Promise<Product | null> {
    return this.manager(manager).findOneBy(Product, { pid });
  }

  findByIds(storeId: number, ids: number[], manager?: EntityManager): Promise<Product[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.manager(manager).findBy(Product, { storeId, id: In(ids) });
  }

  /**
   * The same, each row held `FOR KEY SHARE` until the transaction ends: a deletion (which locks the
   * row `FOR UPDATE`) waits for it, and a row a deletion holds is read after that deletion commits.
   */
  holdByIds(storeId: number, ids: number[], manager: EntityManager): Promise<Product[]> {
    if (!ids.length) return Promise.resolve([]);
    return manager.find(Product, {
      where: { storeId, id: In(ids) },
      order: { id: 'ASC' },
      lock: { mode: 'for_key_share' },
    });
  }

  /**
   * The product held `FOR SHARE` until the transaction ends, for a row whose rules read the
   * product's state (a plan needs a recurring product). Unlike `FOR KEY SHARE` this conflicts with
   * a plain UPDATE too, so a change of the product (`lockByRef`, `FOR UPDATE`) and its deletion wait
   * for that row's commit, or the row waits for them and reads what they committed (null: deleted).
   */
  shareById(storeId: number, id: number, manager: EntityManager): Promise<Product | null> {
    return manager.findOne(Product, { where: { storeId, id }, lock: { mode: 'pessimistic_read' } });
  }

  /** Newest first; uses the (store_id, created_at) index. */
  listPage(storeId: number, page: PageRequest, manager?: EntityManager): Promise<[Product[], number]> {
    return this.manager(manager).findAndCount(Product, {
      where: { storeId },
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: page.offset,
      take: page.perPage,
    });
  }

  create(values: Partial<Product>, manager?: EntityManager): Promise<Product> {
    const m = this.manager(manager);
    return m.save(m.create(Product, values));
  }

  /** Saves the product; the read port's kept rows are dropped (CatalogCache). */
  async save(product: Product, manager?: EntityManager): Promise<Product> {
    const saved = await this.manager(manager).save(product);
    this.cache.changed();
    return saved;
  }

  async delete(product: Product, manager: EntityManager): Promise<void> {
    await manager.delete(Product, { id: product.id, storeId: product.storeId });
    this.cache.changed();
  }
}
