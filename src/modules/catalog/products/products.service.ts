import { forwardRef, Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DomainEvents } from '../../../common/events/domain-events';
import { ConflictError, NotFoundError, UnprocessableError, ValidationError } from '../../../common/errors/app-error';
import { Clock, CLOCK } from '../../../common/time';
import { PageRequest } from '../../../common/pagination/pagination';
import { inTransaction } from '../../../database/transaction';
import { ReviewStore, SellersService } from '../../identity';
import { CatalogRef, newProductPid, parseRef } from '../catalog-refs';
import { ProductFilesRepository } from '../files/product-files.repository';
import { FILE_STORAGE, FileStorage } from '../files/storage/file-storage';
import { PlansRepository } from '../plans/plans.repository';
import { SalesRepository } from '../../billing';
import { CreateProductDto, UpdateProductDto } from './dto/product.dto';
import { PRODUCT_HAS_SALES, productDeletedEvent } from '../deletion-events';
import { productReviewedEvent } from './product-reviewed.event';
import { OrderBumpsService } from '../order-bumps/order-bumps.service';
import { productChanges } from './product.mapper';
import { Product, ProductReviewStatus } from './product.entity';
import { missingPublishFields, nextReviewStatus } from './product-review';
import { ProductsRepository } from './products.repository';

export type ReviewDecision = 'approve' | 'reject';

/** A product waiting in the operators' review queue, with what a reviewer needs beside it. */
export interface PendingReview {
  product: Product;
  /** Null only if the store vanished between the two reads. */
  store: ReviewStore | null;
  fileCount: number;
}

/** A product no longer pending review (decided by someone else meanwhile): nothing was changed. */
export class NotPendingReviewError extends ConflictError {}

@Injectable()
export class ProductsService {
  private readonly logger = new Logger(ProductsService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly products: ProductsRepository,
    private readonly files: ProductFilesRepository,
    private readonly plans: PlansRepository,
    @Inject(forwardRef(() => SalesRepository)) private readonly sales: SalesRepository,
    private readonly sellers: SellersService,
    private readonly bumps: OrderBumpsService,
    private readonly events: DomainEvents,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The store's currency, shown on every product and plan. */
  async currencyOf(storeId: number): Promise<string> {
    const store = await this.sellers.findStore(storeId);
    if (!store) throw new NotFoundError();
    return store.currency.trim();
  }

  /** A product of the store by numeric id or `product_pid`, or null. For other modules (orders, bumps). */
  findForStore(storeId: number, idOrPid: string | number): Promise<Product | null> {
    return this.products.findByRef(storeId, typeof idOrPid === 'number' ? { id: idOrPid } : parseRef(idOrPid));
  }

  /**
   * The store's products among `ids` (another store's are not there), by id. For the modules that
   * show or check the products they refer to (a webhook's product filter, a discount's products).
   */
  async findManyForStore(storeId: number, ids: number[], manager?: EntityManager): Promise<Map<number, Product>> {
    const rows = await this.products.findByIds(storeId, [...new Set(ids)], manager);
    return new Map(rows.map((product) => [product.id, product]));
  }

  /**
   * The same, for a row about to name these products (a discount's `product_ids`): each product
   * found is held until `manager`'s transaction ends, so none is deleted between this check and
   * that row's commit. A deletion already under way is waited for, and its product is then missing.
   * Hold them before locking the row that will name them: a deletion updates that row too.
   */
  async holdManyForStore(storeId: number, ids: number[], manager: EntityManager): Promise<Map<number, Product>> {
    const rows = await this.products.holdByIds(storeId, [...new Set(ids)], manager);
    return new Map(rows.map((product) => [product.id, product]));
  }

  /** {@link holdManyForStore} of one product (a file, a webhook limited to it): `missing` is thrown when it is gone. */
  async holdForStore(storeId: number, id: number, manager: EntityManager, missing: Error): Promise<void> {
    if (!(await this.holdManyForStore(storeId, [id], manager)).has(id)) throw missing;
  }

  /**
   * A product of the store for a plan being created in `manager`'s transaction, held `FOR SHARE`
   * until it ends and read under that hold (its `type` decides whether a plan may be added), or null
   * once deleted. {@link update} (which checks the product's plans under its `FOR UPDATE` lock) and
   * {@link delete} either wait for that plan's commit and see it, or run first and the plan sees
   * their outcome (catalog README, *Plans*).
   */
  shareForPlan(storeId: number, productId: number, manager: EntityManager): Promise<Product | null> {
    return this.products.shareById(storeId, productId, manager);
  }

  /** Same as {@link findForStore} but a missing or foreign product is 404 `Resource not found.` */
  async get(storeId: number, idOrPid: string): Promise<Product> {
    const product = await this.findForStore(storeId, idOrPid);
    if (!product) throw new NotFoundError();
    return product;
  }

  list(storeId: number, page: PageRequest): Promise<[Product[], number]> {
    return this.products.listPage(storeId, page);
  }

  /** `pid`: a new random one; the demo seed gives its products fixed ones (README, Quick start). */
  create(storeId: number, dto: CreateProductDto, pid: string = newProductPid()): Promise<Product> {
    return this.products.create({ ...productChanges(dto), storeId, pid, reviewStatus: 'draft' });
  }

  /**
   * Takes the product back to draft, whatever its review status: the demo seed does, so that the
   * publish example of the OpenAPI description runs again. No route does.
   */
  backToDraft(storeId: number, idOrPid: string): Promise<void> {
    return inTransaction(this.dataSource, async (manager) => {
      const product = await this.products.lockByRef(storeId, parseRef(idOrPid), manager);
      if (!product || product.reviewStatus === 'draft') return;
      product.reviewStatus = 'draft';
      await this.products.save(product, manager);
    });
  }

  update(storeId: number, idOrPid: string, dto: UpdateProductDto): Promise<Product> {
    return inTransaction(this.dataSource, async (manager) => {
      const product = await this.products.lockByRef(storeId, parseRef(idOrPid), manager);
      if (!product) throw new NotFoundError();
      const changes = productChanges(dto);
      // Counted under the product's lock: a plan being created holds the product `FOR SHARE`
      // (shareForPlan), so it has committed before this count, or it waits and reads `one_time`.
      if (changes.type === 'one_time' && product.type === 'recurring') {
        if ((await this.plans.countForProduct(storeId, product.id, manager)) > 0) {
          throw ValidationError.field('type', 'A product with plans must stay recurring; delete its plans first.');
        }
      }
      Object.assign(product, changes);
      return this.products.save(product, manager);
    });
  }

  /**
   * Deletes the product with its files and plans. A product with sales stays: its orders, download
   * links and subscriptions refer to it.
   */
  async delete(storeId: number, idOrPid: string): Promise<Product> {
    const { product, storageKeys } = await inTransaction(this.dataSource, async (manager) => {
      const product = await this.products.lockByRef(storeId, parseRef(idOrPid), manager);
      if (!product) throw new NotFoundError();
      if (await this.sales.productHasSales(storeId, product.id, manager)) {
        throw new ConflictError(PRODUCT_HAS_SALES);
      }
      const storageKeys = await this.files.deleteForProduct(storeId, product.id, manager);
      await this.plans.deleteForProduct(storeId, product.id, manager);
      // A deleted product neither offers bumps nor is offered as one.
      await this.bumps.deleteAllOfProduct(manager, storeId, product.id);
      await this.events.publish(productDeletedEvent(storeId, product.id, this.clock.now()), manager);
      await this.products.delete(product, manager);
      return { product, storageKeys };
    });
    // Objects go only after the rows are gone for good; a leftover object is harmless, a dangling row is not.
    await Promise.all(
      storageKeys.map((key) =>
        this.storage
          .delete(key)
          .catch((error: unknown) => this.logger.warn({ err: error, key }, 'Could not delete stored file')),
      ),
    );
    return product;
  }

  /** Submits the product for review once every requirement holds. */
  async publish(storeId: number, idOrPid: string): Promise<Product> {
    // Read before the transaction: every query inside it must go through its connection.
    const currency = await this.currencyOf(storeId);
    return inTransaction(this.dataSource, async (manager) => {
      const product = await this.products.lockByRef(storeId, parseRef(idOrPid), manager);
      if (!product) throw new NotFoundError();
      const next = nextReviewStatus(product.reviewStatus, 'publish');
      if (!next) throw new ConflictError('Product is already in review.');
      const [fileCount, planCount] = await Promise.all([
        this.files.countForProduct(storeId, product.id, manager),
        this.plans.countForProduct(storeId, product.id, manager),
      ]);
      const missing = missingPublishFields({ product, currency, fileCount, planCount });
      if (Object.keys(missing).length) {
        throw new UnprocessableError('Product is missing required data.', { missing_fields: missing });
      }
      product.reviewStatus = next;
      return this.products.save(product, manager);
    });
  }

  /**
   * The operator's review decision, from `product:review` or the dashboard's review page: pending →
   * approved | rejected, with the reviewer's reason (the page requires one to reject). The seller is
   * emailed the decision after commit (`product.reviewed`).
   */
  review(pid: string, decision: ReviewDecision, reason?: string | null): Promise<Product> {
    return inTransaction(this.dataSource, async (manager) => {
      const product = await this.products.lockByPid(pid, manager);
      if (!product) throw new NotFoundError('Product not found.');
      const next: ProductReviewStatus | null = nextReviewStatus(product.reviewStatus, decision);
      if (!next)
        throw new NotPendingReviewError(`Product is not pending review (status_2 is ${product.reviewStatus}).`);
      product.reviewStatus = next;
      product.reviewReason = reason?.trim() || null;
      const saved = await this.products.save(product, manager);
      await this.events.publish(productReviewedEvent(product.storeId, product.id, next, this.clock.now()), manager);
      return saved;
    });
  }

  /**
   * The review queue across stores (operators only: the review pages check the role first), with
   * each product's store and file count.
   */
  async pendingReview(page: PageRequest): Promise<[PendingReview[], number]> {
    const [products, total] = await this.products.listPendingReview(page);
    const [stores, fileCounts] = await Promise.all([
      this.sellers.storesForReview(products.map((p) => p.storeId)),
      this.files.countsForProducts(products),
    ]);
    const items = products.map((product) => ({
      product,
      store: stores.get(product.storeId) ?? null,
      fileCount: fileCounts.get(product.id) ?? 0,
    }));
    return [items, total];
  }

  /** One product of any store for the review pages, with its store and file count; 404 when unknown. */
  async forReview(pid: string): Promise<PendingReview> {
    const product = await this.products.findByPid(pid);
    if (!product) throw new NotFoundError();
    const [stores, fileCounts] = await Promise.all([
      this.sellers.storesForReview([product.storeId]),
      this.files.countsForProducts([product]),
    ]);
    return { product, store: stores.get(product.storeId) ?? null, fileCount: fileCounts.get(product.id) ?? 0 };
  }

  /** Products by id, for mapping plans to their `product_pid`. */
  async pidsByProductId(storeId: number, productIds: number[]): Promise<Map<number, string>> {
    const products = await this.products.findByIds(storeId, [...new Set(productIds)]);
    return new Map(products.map((product) => [product.id, product.pid]));
  }

  /** For the files and plans services: a product of the store, 404 `Resource not found.` otherwise. */
  async requireRef(storeId: number, ref: CatalogRef): Promise<Product> {
    const product = await this.products.findByRef(storeId, ref);
    if (!product) throw new NotFoundError();
    return product;
  }
}
