import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { ProductFile } from '../../catalog/files/product-file.entity';
import { OrderBump } from '../../catalog/order-bumps/order-bump.entity';
import { Plan } from '../../catalog/plans/plan.entity';
import { Product } from '../../catalog/products/product.entity';
import { Store } from '../../identity/sellers/store.entity';
import { PreparedStatement } from '../../../database/prepared-statements';
import { EntityColumns } from '../../../database/raw-rows';

/**
 * Billing's read-only view of catalog and identity rows (products, plans, bumps, files, stores).
 * Those modules own the writes; billing only needs to read them, often inside its own transaction.
 */
@Injectable()
export class CatalogReadRepository {
  private readonly productColumns: EntityColumns<Product>;
  private readonly productForOrder: PreparedStatement;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.productColumns = new EntityColumns(dataSource, Product);
    this.productForOrder = new PreparedStatement(
      dataSource,
      `SELECT ${this.productColumns.select('p')}, "s"."currency" AS "store_currency" ` +
      `FROM ${this.productColumns.table} "p" JOIN "stores" "s" ON "s"."id" = "p"."store_id" ` +
        `WHERE "p"."store_id" = $1 AND "p"."pid" = $2`,
    );
  }

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  findProductByPid(storeId: number, pid: string, manager?: EntityManager): Promise<Product | null> {
    return this.m(manager).findOneBy(Product, { storeId, pid });
  }

  /** What order creation reads before its transaction, in one round trip: the product and the store's currency. */
  async findProductForOrder(storeId: number, pid: string): Promise<{ product: Product; currency: string } | null> {
    const rows = await this.productForOrder.rows([storeId, pid]);
    if (!rows.length) return null;
    return { product: this.productColumns.hydrate(rows[0], 'p_'), currency: rows[0].store_currency as string };
  }

  findProduct(id: number, manager?: EntityManager): Promise<Product | null> {
    return this.m(manager).findOneBy(Product, { id });
  }

  async findProducts(ids: number[], manager?: EntityManager): Promise<Map<number, Product>> {
    if (!ids.length) return new Map();
    const rows = await this.m(manager).findBy(Product, { id: In([...new Set(ids)]) });
    return new Map(rows.map((p) => [p.id, p]));
  }

  findPlanByPublicId(storeId: number, planId: string, manager?: EntityManager): Promise<Plan | null> {
    return this.m(manager).findOneBy(Plan, { storeId, planId });
  }

  findPlan(id: number, manager?: EntityManager): Promise<Plan | null> {
    return this.m(manager).findOneBy(Plan, { id });
  }

  async findPlans(ids: number[], manager?: EntityManager): Promise<Map<number, Plan>> {
    if (!ids.length) return new Map();
    const rows = await this.m(manager).findBy(Plan, { id: In([...new Set(ids)]) });
    return new Map(rows.map((p) => [p.id, p]));
  }

  findStore(id: number, manager?: EntityManager): Promise<Store | null> {
    return this.m(manager).findOneBy(Store, { id });
  }

  /** The bumps offered on a product, each with the product it adds, in the order they were added. */
  async findBumpsOffered(storeId: number, productId: number, manager?: EntityManager): Promise<Array<{ bump: OrderBump; product: Product }>> {
    const bumps = await this.m(manager).find(OrderBump, { where: { storeId, productId }, order: { id: 'ASC' } });
    const products = await this.findProducts(bumps.map((b) => b.bumpProductId), manager);
    return bumps
      .map((bump) => ({ bump, product: products.get(bump.bumpProductId) }))
      .filter((row): row is { bump: OrderBump; product: Product } => row.product?.storeId === storeId);
  }

  findFilesOfProducts(storeId: number, productIds: number[], manager?: EntityManager): Promise<ProductFile[]> {
    if (!productIds.length) return Promise.resolve([]);
    return this.m(manager).find(ProductFile, {
      where: { storeId, productId: In([...new Set(productIds)]) },
      order: { productId: 'ASC', id: 'ASC' },
    });
  }
}
