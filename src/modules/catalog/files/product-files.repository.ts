import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull, Not } from 'typeorm';
import { CatalogCache } from '../reads/catalog-cache';
import { ProductFile } from './product-file.entity';

/** The product files; every write drops the read port's kept rows (CatalogCache). */
@Injectable()
export class ProductFilesRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly cache: CatalogCache,
  ) {}

  private manager(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  async create(values: Partial<ProductFile>, manager?: EntityManager): Promise<ProductFile> {
    const m = this.manager(manager);
    const saved = await m.save(m.create(ProductFile, values));
    this.cache.changed();
    return saved;
  }

  /** Oldest first: the order the seller added them in. */
  listForProduct(storeId: number, productId: number, manager?: EntityManager): Promise<ProductFile[]> {
    return this.manager(manager).find(ProductFile, { where: { storeId, productId }, order: { id: 'ASC' } });
  }

  countForProduct(storeId: number, productId: number, manager?: EntityManager): Promise<number> {
    return this.manager(manager).countBy(ProductFile, { storeId, productId });
  }

  /** Files per product of these (store, product) pairs, for the review queue that spans stores. */
  async countsForProducts(products: Array<{ storeId: number; id: number }>): Promise<Map<number, number>> {
    if (!products.length) return new Map();
    const rows = await this.manager()
      .createQueryBuilder(ProductFile, 'f')
      .select('f.productId', 'productId')
      .addSelect('COUNT(*)::int', 'count')
      .where('f.productId IN (:...ids)', { ids: products.map((p) => p.id) })
      .andWhere('f.storeId IN (:...stores)', { stores: [...new Set(products.map((p) => p.storeId))] })
      .groupBy('f.productId')
      .getRawMany<{ productId: number; count: number }>();
    return new Map(rows.map((row) => [Number(row.productId), Number(row.count)]));
  }

  /** Whether any product of the store has a file (the dashboard's getting-started checklist). */
  existsInStore(storeId: number): Promise<boolean> {
    return this.manager().existsBy(ProductFile, { storeId });
  }

  findOne(storeId: number, productId: number, id: number, manager?: EntityManager): Promise<ProductFile | null> {
    return this.manager(manager).findOneBy(ProductFile, { storeId, productId, id });
  }

  /** The keys of the store's uploaded files' stored objects (a reset of test data deletes them after commit). */
  async storageKeysOfStore(storeId: number, manager?: EntityManager): Promise<string[]> {
    const rows = await this.manager(manager).find(ProductFile, {
      where: { storeId, storageKey: Not(IsNull()) },
      select: { id: true, storageKey: true },
    });
    return rows.map((row) => row.storageKey!);
  }

  /** The CDN's lookup: the unguessable key is the capability, so no store is involved. */
  findByStorageKey(storageKey: string, manager?: EntityManager): Promise<ProductFile | null> {
    return this.manager(manager).findOneBy(ProductFile, { storageKey, kind: 'upload' });
  }

  /** Whether this request deleted it: of two deletions at once, one does, the other finds it gone. */
  async delete(file: ProductFile, manager?: EntityManager): Promise<boolean> {
    const result = await this.manager(manager).delete(ProductFile, { id: file.id, storeId: file.storeId });
    this.cache.changed();
    return (result.affected ?? 0) > 0;
  }

  /** Removes every file row of a product and returns the storage keys to delete after commit. */
  async deleteForProduct(storeId: number, productId: number, manager: EntityManager): Promise<string[]> {
    const files = await manager.find(ProductFile, {
      where: { storeId, productId },
      select: { id: true, storageKey: true },
    });
    await manager.delete(ProductFile, { storeId, productId });
    this.cache.changed();
    return files.map((file) => file.storageKey).filter((key): key is string => key !== null);
  }
}
