import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { MAX_INT4 } from '../../../common/http/path-id';
import { parseRef } from '../catalog-refs';
import { Product } from '../products/product.entity';

export type ProductSummary = Pick<Product, 'id' | 'pid' | 'name'>;

const SUMMARY = { id: true, pid: true, name: true } as const;

/**
 * Read-only access to products for the bumps routes; products themselves belong to the catalog
 * service, which this module does not depend on.
 */
@Injectable()
export class ProductLookupRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  findById(storeId: number, id: number, manager?: EntityManager): Promise<ProductSummary | null> {
    if (!Number.isInteger(id) || id < 1 || id > MAX_INT4) return Promise.resolve(null);
    return (manager ?? this.dataSource.manager).findOne(Product, { select: SUMMARY, where: { storeId, id } });
  }

  findByPid(storeId: number, pid: string, manager?: EntityManager): Promise<ProductSummary | null> {
    return (manager ?? this.dataSource.manager).findOne(Product, { select: SUMMARY, where: { storeId, pid } });
  }

  /** By numeric `id`, else by `pid` (a path `{id}` accepts both). */
  findByRef(storeId: number, ref: string, manager?: EntityManager): Promise<ProductSummary | null> {
    const parsed = parseRef(ref);
    return 'id' in parsed
      ? this.findById(storeId, parsed.id, manager)
      : this.findByPid(storeId, parsed.publicId, manager);
  }

  /**
   * These products of the store held `FOR KEY SHARE` until the transaction ends, in id order (the
   * catalog's order): a deletion under way is waited for, and a product it deleted is not returned.
   */
  hold(storeId: number, ids: number[], manager: EntityManager): Promise<ProductSummary[]> {
    return manager.find(Product, {
      select: SUMMARY,
      where: { storeId, id: In(ids) },
      order: { id: 'ASC' },
      lock: { mode: 'for_key_share' },
    });
  }
}
