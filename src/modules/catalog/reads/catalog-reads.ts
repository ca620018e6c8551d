import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { OrderBump } from '../order-bumps/order-bump.entity';
import { Plan } from '../plans/plan.entity';
import { Product } from '../products/product.entity';
import { ProductFile } from '../files/product-file.entity';
import { CatalogCache } from './catalog-cache';
import { PreparedStatement } from '../../../database/prepared-statements';
import { EntityColumns, PickedColumns } from '../../../database/entity-sql';

/**
 * The catalog's read port: what other modules (billing's checkout, payments, receipts, renewals)
 * read of products, plans, bumps and files, often inside their own transaction (`manager`). The
 * catalog's services own every write; this class only reads, so no other module's SQL names the
 * catalog's tables (CONTRIBUTING.md, Layout).
 */
@Injectable()
export class CatalogReads {
  /** What the checkout policy reads of the product and of its plan. */
  private readonly checkoutProduct: PickedColumns<Product, 'id' | 'type'>;
  private readonly checkoutPlan: PickedColumns<Plan, 'id' | 'productId'>;
  private readonly forCheckout: PreparedStatement;
  private readonly products: EntityColumns<Product>;
  private readonly plans: EntityColumns<Plan>;
  private readonly productAndPlanStatement: PreparedStatement;
  private readonly files: EntityColumns<ProductFile>;
  private readonly filesOfProducts: PreparedStatement;
  private readonly productsById: PreparedStatement;
  /** The ids a list filter's product or plan reference names (its id or its public id). */
  private readonly idsByRef: { products: PreparedStatement; plans: PreparedStatement };

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly cache: CatalogCache,
  ) {
    const products = new EntityColumns(dataSource, Product);
    this.products = products;
    this.files = new EntityColumns(dataSource, ProductFile);
    this.filesOfProducts = new PreparedStatement(
      dataSource,
      `SELECT ${this.files.select('f', '')} FROM ${this.files.table} "f" ` +
        `WHERE "f"."store_id" = $1 AND "f"."product_id" = ANY($2) ORDER BY "f"."product_id", "f"."id"`,
    );
    this.productsById = new PreparedStatement(
      dataSource,
      `SELECT ${products.returning()} FROM ${products.table} WHERE "id" = ANY($1)`,
    );
    this.checkoutProduct = products.pick('id', 'type');
    const plans = (this.plans = new EntityColumns(dataSource, Plan));
    // An order's product and plan, as its view and its events show them: one round trip.
    this.productAndPlanStatement = new PreparedStatement(
      dataSource,
      `SELECT ${products.select('p')}, ${plans.select('pl')} FROM (SELECT 1) one ` +
        `LEFT JOIN ${products.table} p ON p.id = $1 LEFT JOIN ${plans.table} pl ON pl.id = $2`,
    );
    this.checkoutPlan = plans.pick('id', 'productId');
    this.idsByRef = {
      products: new PreparedStatement(
        dataSource,
        `SELECT id FROM ${products.table} WHERE store_id = $1 AND (pid = $2 OR id::text = $2)`,
      ),
      plans: new PreparedStatement(
        dataSource,
        `SELECT id FROM plans WHERE store_id = $1 AND (plan_id = $2 OR id::text = $2)`,
      ),
    };
    this.forCheckout = new PreparedStatement(
      dataSource,
      `SELECT ${this.checkoutProduct.select('p')}, ${this.checkoutPlan.select('pl')} FROM (SELECT 1) one ` +
        `LEFT JOIN ${products.table} p ON p.store_id = $1 AND p.pid = $2 ` +
        `LEFT JOIN ${plans.table} pl ON pl.store_id = $1 AND pl.plan_id = $3`,
    );
  }

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  /** The store's products a list filter names (`product`: its id or its pid), as ids. */
  async productIdsByRef(storeId: number, ref: string): Promise<number[]> {
    const rows = await this.idsByRef.products.rows<{ id: number }>([storeId, ref]);
    return rows.map((row) => row.id);
  }

  /** The store's plans a list filter names (`plan`: its id or its public `plan_id`), as ids. */
  async planIdsByRef(storeId: number, ref: string): Promise<number[]> {
    const rows = await this.idsByRef.plans.rows<{ id: number }>([storeId, ref]);
    return rows.map((row) => row.id);
  }

  /**
   * What the checkout policy reads, in one round trip: the store's product by pid and, when
   * `planId` is given, the store's plan by its public id (whichever product it is of). Kept a
   * moment in `CatalogCache` when both are found.
   */
  productForCheckout(
    storeId: number,
    pid: string,
    planId: string | null,
  ): Promise<{ product: Pick<Product, 'id' | 'type'> | null; plan: Pick<Plan, 'id' | 'productId'> | null }> {
    return this.cache.through(
      `checkout:${storeId}:${pid}:${planId ?? ''}`,
      async () => {
        const [row] = await this.forCheckout.arrays([storeId, pid, planId]);
        return {
          product: this.checkoutProduct.readOptional(row, 0),
          plan: this.checkoutPlan.readOptional(row, this.checkoutProduct.length),
        };
      },
      (found) => found.product !== null && (planId === null || found.plan !== null),
    );
  }

  /**
   * A product and a plan by id (an order's), in one round trip; null where there is none (a
   * product deleted while it had no sale). With `manager`, read in the caller's transaction. Kept
   * a moment in `CatalogCache` when found: the rows are shared, never to be changed by the caller.
   */
  productAndPlan(
    productId: number,
    planId: number | null,
    manager?: EntityManager,
  ): Promise<{ product: Product | null; plan: Plan | null }> {
    return this.cache.through(
      `shown:${productId}:${planId ?? ''}`,
      async () => {
        const [row] = await this.productAndPlanStatement.rows([productId, planId], manager);
        return { product: this.products.hydrateOptional(row, 'p_'), plan: this.plans.hydrateOptional(row, 'pl_') };
      },
      (found) => found.product !== null && (planId === null || found.plan !== null),
      manager === undefined,
    );
  }

  /**
   * By id: every checkout page, payment and approval reads its product. Kept a moment in
   * `CatalogCache` when found (shared: never to be changed by the caller).
   */
  async findProduct(id: number, manager?: EntityManager): Promise<Product | null> {
    return (await this.findProducts([id], manager)).get(id) ?? null;
  }

  /** `findProduct` of several, those not kept in one round trip. */
  async findProducts(ids: number[], manager?: EntityManager): Promise<Map<number, Product>> {
    const found = new Map<number, Product>();
    const missing: number[] = [];
    for (const id of new Set(ids)) {
      const kept = this.cache.kept<Product>(productKey(id));
      if (kept) found.set(id, kept);
      else missing.push(id);
    }
    if (!missing.length) return found;
    const readSince = this.cache.version();
    const rows = await this.productsById.rows([missing], manager);
    for (const row of rows) {
      const product = this.products.hydrate(row);
      this.cache.keep(productKey(product.id), product, readSince);
      found.set(product.id, product);
    }
    return found;
  }

  /** A product by its public id, whichever store it is of (a buy link names only the product). */
  findProductByPid(pid: string): Promise<Product | null> {
    return this.m().findOneBy(Product, { pid });
  }

  /** The plans of a product, cheapest first (a buy link offers them). */
  findPlansOfProduct(storeId: number, productId: number): Promise<Plan[]> {
    return this.m().find(Plan, { where: { storeId, productId }, order: { price: 'ASC', id: 'ASC' } });
  }

  findPlan(id: number, manager?: EntityManager): Promise<Plan | null> {
    return this.m(manager).findOneBy(Plan, { id });
  }

  async findPlans(ids: number[], manager?: EntityManager): Promise<Map<number, Plan>> {
    if (!ids.length) return new Map();
    const rows = await this.m(manager).findBy(Plan, { id: In([...new Set(ids)]) });
    return new Map(rows.map((p) => [p.id, p]));
  }

  /** The bumps offered on a product, each with the product it adds, in the order they were added. */
  async findBumpsOffered(
    storeId: number,
    productId: number,
    manager?: EntityManager,
  ): Promise<Array<{ bump: OrderBump; product: Product }>> {
    const bumps = await this.m(manager).find(OrderBump, { where: { storeId, productId }, order: { id: 'ASC' } });
    const products = await this.findProducts(
      bumps.map((b) => b.bumpProductId),
      manager,
    );
    return bumps
      .map((bump) => ({ bump, product: products.get(bump.bumpProductId) }))
      .filter((row): row is { bump: OrderBump; product: Product } => row.product?.storeId === storeId);
  }

  /** One file of the store by id (a download link names it). */
  findFile(storeId: number, id: number, manager?: EntityManager): Promise<ProductFile | null> {
    return this.m(manager).findOneBy(ProductFile, { storeId, id });
  }

  /** The files of these products, by product then upload (every receipt lists them). */
  /** The files of the store's products, in product and then upload order; kept a moment in `CatalogCache`. */
  async findFilesOfProducts(storeId: number, productIds: number[], manager?: EntityManager): Promise<ProductFile[]> {
    if (!productIds.length) return [];
    const ids = [...new Set(productIds)];
    const { files } = await this.cache.through(
      `files:${storeId}:${ids.join(',')}`,
      async () => ({
        files: (await this.filesOfProducts.rows([storeId, ids], manager)).map((row) => this.files.hydrate(row)),
      }),
      () => true,
      manager === undefined,
    );
    return files;
  }
}

/** Where the catalog cache keeps a product read by id. */
const productKey = (id: number): string => `product:${id}`;
