import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ConflictError, NotFoundError, ValidationError } from '../../../common/errors/app-error';
import { parseIntId } from '../../../common/http/path-id';
import { toCents } from '../../../common/money';
import type { PageRequest } from '../../../common/pagination/pagination';
import { ProductLookupRepository, ProductSummary } from './product-lookup.repository';
import { DuplicateBumpError, OfferedBump, OrderBumpsRepository } from './order-bumps.repository';

export type { OfferedBump } from './order-bumps.repository';

export interface NewOrderBump {
  productId?: number;
  productPid?: string;
  /** JSON number with at most two decimals. */
  price: number;
}

@Injectable()
export class OrderBumpsService {
  constructor(
    private readonly bumps: OrderBumpsRepository,
    private readonly products: ProductLookupRepository,
  ) {}

  /**
   * The bumps a product's checkout offers, in the order the seller added them, each with the
   * offered product's id, pid and name and the bump price in cents. Empty for a product without
   * bumps or of another store.
   */
  listForProduct(storeId: number, productId: number, manager?: EntityManager): Promise<OfferedBump[]> {
    return this.bumps.listForProduct(storeId, productId, manager);
  }

  /** In the transaction that deletes the product: its bumps, offered by it or offering it. */
  deleteAllOfProduct(manager: EntityManager, storeId: number, productId: number): Promise<void> {
    return this.bumps.deleteAllOfProduct(manager, storeId, productId);
  }

  /** `productRef` is the product's id or pid; a missing or foreign product is 404. */
  async listForProductRef(
    storeId: number,
    productRef: string,
  ): Promise<{ product: ProductSummary; bumps: OfferedBump[] }> {
    const product = await this.productOf(storeId, productRef);
    return { product, bumps: await this.bumps.listForProduct(storeId, product.id) };
  }

  /**
   * A page of {@link listForProductRef}. The page is cut from the whole list: a checkout reads the
   * whole list on every order anyway, and a product offers a handful of bumps, not thousands.
   */
  async pageForProductRef(
    storeId: number,
    productRef: string,
    page: PageRequest,
  ): Promise<{ product: ProductSummary; bumps: OfferedBump[]; total: number }> {
    const { product, bumps } = await this.listForProductRef(storeId, productRef);
    // Newest first, as every list of the API; the checkout offers them in the order they were added.
    const newestFirst = [...bumps].reverse();
    return { product, bumps: newestFirst.slice(page.offset, page.offset + page.perPage), total: bumps.length };
  }

  async create(
    storeId: number,
    productRef: string,
    input: NewOrderBump,
  ): Promise<{ product: ProductSummary; bump: OfferedBump }> {
    const product = await this.productOf(storeId, productRef);
    const field = input.productId !== undefined && input.productId !== null ? 'product_id' : 'product_pid';
    const offered =
      field === 'product_id'
        ? await this.products.findById(storeId, input.productId!)
        : await this.products.findByPid(storeId, input.productPid!);
    if (!offered) throw new NotFoundError();
    if (field === 'product_id' && input.productPid != null && input.productPid !== offered.pid) {
      throw ValidationError.field('product_pid', 'product_id and product_pid name different products.');
    }
    if (offered.id === product.id) throw ValidationError.field(field, 'A product cannot be an order bump of itself.');
    try {
      const row = await this.bumps.transaction(async (manager) => {
        // Both products held while the bump is written: a deletion of either (which takes their
        // bumps along in its transaction) is waited for, and then there is no bump to write.
        const held = await this.products.hold(storeId, [product.id, offered.id], manager);
        if (held.length < 2) throw new NotFoundError();
        return this.bumps.create(
          { storeId, productId: product.id, bumpProductId: offered.id, price: toCents(input.price) },
          manager,
        );
      });
      return {
        product,
        bump: { id: row.id, productId: product.id, bumpProduct: offered, price: row.price, createdAt: row.createdAt },
      };
    } catch (error) {
      if (error instanceof DuplicateBumpError)
        throw new ConflictError('This product is already an order bump of the product.');
      throw error;
    }
  }

  async remove(
    storeId: number,
    productRef: string,
    bumpId: string,
  ): Promise<{ product: ProductSummary; bumpId: number }> {
    const product = await this.productOf(storeId, productRef);
    const id = parseIntId(bumpId);
    if (id === null || !(await this.bumps.delete(storeId, product.id, id))) throw new NotFoundError();
    return { product, bumpId: id };
  }

  private async productOf(storeId: number, ref: string): Promise<ProductSummary> {
    const product = await this.products.findByRef(storeId, ref);
    if (!product) throw new NotFoundError();
    return product;
  }
}
