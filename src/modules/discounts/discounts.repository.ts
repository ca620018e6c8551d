import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { ConflictError } from '../../common/errors/app-error';
import { PageRequest } from '../../common/pagination/pagination';
import { inTransaction } from '../../database/transaction';
import { Discount, DISCOUNT_CODE_UNIQUE_INDEX } from './discount.entity';
import { MAX_INT4 } from '../../common/http/path-id';
import { codeKey, isNumericId } from './discount-input';
import { PreparedStatement } from '../../database/prepared-statements';
import { couponDiscountSql, CouponRejection, couponRejectionSql, takeUseSql } from './coupon-rules';

export const DUPLICATE_CODE_MESSAGE = 'A discount with this code already exists.';

/** `{id}` of the path: the numeric id or the code (OpenAPI: `GET`/`DELETE /v1/discounts/{id}`). */
export type DiscountRef = string;

@Injectable()
export class DiscountsRepository {
  private readonly statements: { lock: PreparedStatement; reserve: PreparedStatement };

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    const inputs = { productId: '$3::int', amount: '$4::numeric', email: '$5::text', now: '$6::timestamptz' };
    this.statements = {
      lock: new PreparedStatement(
        dataSource,
        'SELECT id FROM discounts WHERE store_id = $1 AND code_key = $2 FOR UPDATE',
      ),
      // One row: the reason the rules refuse the coupon, or its id, code and discount with a use taken.
      reserve: new PreparedStatement(
        dataSource,
        `WITH found AS (SELECT d.id, d.code, ${couponRejectionSql('d', inputs)} AS rejection, ${couponDiscountSql('d', inputs)}::text AS discount ` +
          `FROM (SELECT 1) one LEFT JOIN discounts d ON d.store_id = $1 AND d.code_key = $2), ` +
          `taken AS (${takeUseSql('found', 'found.id', 'found.rejection IS NULL')}) ` +
          // Under the lock a use left on the snapshot is still there; 'exhausted' only if it is not.
          `SELECT COALESCE(found.rejection, CASE WHEN taken.id IS NULL THEN 'exhausted' END), found.id, found.code, found.discount ` +
          `FROM found LEFT JOIN taken ON true`,
      ),
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
  listForStore(storeId: number, page: PageRequest): Promise<[Discount[], number]> {
    return this.manager().findAndCount(Discount, {
      where: { storeId },
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

  /**
   * Applies the coupon rules (coupon-rules.ts) and takes a use when they hold, inside the caller's
   * transaction. The coupon's row is locked first, until that transaction ends: the rules are then
   * read on a snapshot that holds every redemption of the coupon committed before, so two
   * reservations racing (for the last use, or by one email on a single-use coupon) cannot both pass.
   */
  async reserveUse(
    manager: EntityManager,
    request: { storeId: number; codeKey: string; productId: number; amount: string; email: string; now: Date },
  ): Promise<{ rejection: CouponRejection } | { rejection: null; id: number; code: string; discount: string }> {
    const params = [request.storeId, request.codeKey];
    await this.statements.lock.rows(params, manager);
    const [row] = await this.statements.reserve.arrays(
      [...params, request.productId, request.amount, request.email, request.now],
      manager,
    );
    const [rejection, id, code, discount] = row as [CouponRejection | null, number, string, string];
    return rejection ? { rejection } : { rejection: null, id, code, discount };
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
