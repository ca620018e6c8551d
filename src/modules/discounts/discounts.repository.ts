import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { ConflictError } from '../../common/errors/app-error';
import { PageRequest } from '../../common/pagination/pagination';
import { inTransaction } from '../../database/transaction';
import { Discount, DISCOUNT_CODE_UNIQUE_INDEX, DiscountStatus } from './discount.entity';
import { MAX_INT4 } from '../../common/http/path-id';
import { codeKey, isNumericId } from './discount-input';
import { PreparedStatement } from '../../database/prepared-statements';
import { EntityColumns, PickedColumns } from '../../database/entity-sql';
import { CouponRow } from './coupon-policy';
import { takeCouponUse } from './coupon-use';

export const DUPLICATE_CODE_MESSAGE = 'A discount with this code already exists.';

/** `{id}` of the path: the numeric id or the code (OpenAPI: `GET`/`DELETE /v1/discounts/{id}`). */
export type DiscountRef = string;

@Injectable()
export class DiscountsRepository {
  private readonly coupon: PickedColumns<Discount, keyof CouponRow>;
  private readonly statements: {
    couponByCode: PreparedStatement;
    lockCouponByCode: PreparedStatement;
    takeUse: PreparedStatement;
  };

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    const discounts = new EntityColumns(dataSource, Discount);
    this.coupon = discounts.pick(
      'id',
      'code',
      'type',
      'value',
      'status',
      'productIds',
      'usesLimit',
      'usedCount',
      'singleUse',
      'neverExpires',
      'expiresAt',
    );
    const byCode = `SELECT ${this.coupon.select('d')} FROM ${discounts.table} d WHERE d.store_id = $1 AND d.code_key = $2`;
    this.statements = {
      couponByCode: new PreparedStatement(dataSource, byCode),
      lockCouponByCode: new PreparedStatement(dataSource, `${byCode} FOR UPDATE`),
      takeUse: new PreparedStatement(dataSource, takeCouponUse('$1').text),
    };
  }

  private manager(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>, outer?: EntityManager): Promise<T> {
    return inTransaction(this.dataSource, work, outer);
  }

  /**
   * The store's discount by numeric id or by code (any case); another store's is null, like a
   * missing one. With `lock`, the row stays locked until the caller's transaction ends.
   */
  findForStore(
    storeId: number,
    ref: DiscountRef,
    options: { manager?: EntityManager; lock?: boolean } = {},
  ): Promise<Discount | null> {
    const query = this.manager(options.manager)
      .createQueryBuilder(Discount, 'd')
      .where('d.store_id = :storeId', { storeId });
    if (isNumericId(ref)) {
      const id = Number(ref);
      if (id > MAX_INT4) return Promise.resolve(null);
      query.andWhere('d.id = :id', { id });
    } else {
      query.andWhere('d.code_key = :key', { key: codeKey(ref) });
    }
    if (options.lock) query.setLock('pessimistic_write');
    return query.getOne();
  }

  /** Newest first (the OpenAPI description). */
  listForStore(storeId: number, page: PageRequest, status?: DiscountStatus): Promise<[Discount[], number]> {
    return this.manager().findAndCount(Discount, {
      where: status ? { storeId, status } : { storeId },
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: page.offset,
      take: page.perPage,
    });
  }

  /**
   * Inserts or updates; a code already taken in the store (any case) is a 409. The unique index
   * decides, so two requests racing for one code cannot both win.
   */
  async save(discount: Discount, manager?: EntityManager): Promise<Discount> {
    try {
      return await this.manager(manager).save(Discount, discount);
    } catch (error) {
      if (isUniqueViolation(error, DISCOUNT_CODE_UNIQUE_INDEX)) throw new ConflictError(DUPLICATE_CODE_MESSAGE);
      throw error;
    }
  }

  create(values: Partial<Discount>): Discount {
    return this.dataSource.manager.create(Discount, values);
  }

  async remove(id: number, manager?: EntityManager): Promise<void> {
    await this.manager(manager).delete(Discount, { id });
  }

  /** What the coupon rules read of the store's coupon with this code key, or null. */
  async couponByCode(storeId: number, key: string, manager?: EntityManager): Promise<CouponRow | null> {
    const [row] = await this.statements.couponByCode.arrays([storeId, key], manager);
    return row ? this.coupon.read(row) : null;
  }

  /**
   * As `couponByCode`, with the row locked until the caller's transaction ends: what the rules
   * then read holds every redemption of the coupon committed before, and none can start meanwhile.
   */
  async lockCouponByCode(manager: EntityManager, storeId: number, key: string): Promise<CouponRow | null> {
    const [row] = await this.statements.lockCouponByCode.arrays([storeId, key], manager);
    return row ? this.coupon.read(row) : null;
  }

  /** Takes one use of the coupon (coupon-use.ts); false when none was left. */
  async takeUse(manager: EntityManager, id: number): Promise<boolean> {
    return (await this.statements.takeUse.arrays([id], manager)).length > 0;
  }

  /**
   * In the transaction that deletes a product: its id leaves the `product_ids` of every discount of
   * the store. A discount left with none is made inactive, since no products means every product
   * (README of discounts, *A deleted product*). Every SET reads the row as it was.
   */
  async dropProduct(manager: EntityManager, storeId: number, productId: number): Promise<void> {
    await manager
      .createQueryBuilder()
      .update(Discount)
      .set({
        productIds: () => 'array_remove(product_ids, :productId)',
        status: () => "CASE WHEN product_ids = ARRAY[:productId]::int[] THEN 'inactive' ELSE status END",
      })
      .where('store_id = :storeId AND :productId = ANY(product_ids)', { storeId, productId })
      .execute();
  }

  /** Gives a reserved use back; never below zero. */
  async releaseUse(manager: EntityManager, id: number): Promise<void> {
    await manager
      .createQueryBuilder()
      .update(Discount)
      .set({ usedCount: () => 'used_count - 1' })
      .where('id = :id AND used_count > 0', { id })
      .execute();
  }
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driverError = error.driverError as { code?: string; constraint?: string };
  return driverError.code === '23505' && driverError.constraint === constraint;
}
