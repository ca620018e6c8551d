import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { ConflictError } from '../../common/errors/app-error';
import { PageRequest } from '../../common/pagination/pagination';
import { inTransaction } from '../../database/transaction';
import { Discount, DISCOUNT_CODE_UNIQUE_INDEX } from './discount.entity';
import { MAX_INT4 } from '../../common/http/path-id';
import { codeKey, isNumericId } from './discount-input';

export const DUPLICATE_CODE_MESSAGE = 'A discount with this code already exists.';

/** `{id}` of the path: the numeric id or the code (spec §4.5). */
export type DiscountRef = string;

@Injectable()
export class DiscountsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

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
  findForStore(storeId: number, ref: DiscountRef, options: { manager?: EntityManager; lock?: boolean } = {}): Promise<Discount | null> {
    const query = this.manager(options.manager).createQueryBuilder(Discount, 'd').where('d.store_id = :storeId', { storeId });
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

  /** Newest first (decisions §6). */
  listForStore(storeId: number, page: PageRequest): Promise<[Discount[], number]> {
    return this.manager().findAndCount(Discount, {
      where: { storeId },
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: page.offset,
      take: page.perPage,
    });
  }

  /** Which of `ids` are products of the store. */
  async existingProductIds(storeId: number, ids: number[], manager?: EntityManager): Promise<number[]> {
    if (!ids.length) return [];
    const rows: { id: number }[] = await this.manager(manager).query(
      'SELECT id FROM products WHERE store_id = $1 AND id = ANY($2::int[])',
      [storeId, ids],
    );
    return rows.map((row) => row.id);
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
   * The store's coupon for `code` (any case), row-locked until the caller's transaction ends:
   * concurrent redemptions of one coupon queue here, so `used_count` never passes `uses_limit`.
   */
  lockByCode(manager: EntityManager, storeId: number, code: string): Promise<Discount | null> {
    return manager
      .createQueryBuilder(Discount, 'd')
      .setLock('pessimistic_write')
      .where('d.store_id = :storeId AND d.code_key = :codeKey', { storeId, codeKey: codeKey(code) })
      .getOne();
  }

  /**
   * Takes one use if one is left. The condition repeats the check made under the row lock, so
   * even a caller that skipped the lock cannot oversell; false when no use was taken.
   */
  async incrementUse(manager: EntityManager, id: number): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .update(Discount)
      .set({ usedCount: () => 'used_count + 1' })
      .where('id = :id AND (uses_limit IS NULL OR used_count < uses_limit)', { id })
      .execute();
    return (result.affected ?? 0) > 0;
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
