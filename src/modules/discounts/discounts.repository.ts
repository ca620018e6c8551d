import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Discount } from './discount.entity';

@Injectable()
export class DiscountsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private manager(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  /**
   * The store's coupon for `code` (any case), row-locked until the caller's transaction ends:
   * concurrent redemptions of one coupon queue here, so `used_count` never passes `uses_limit`.
   */
  lockByCode(manager: EntityManager, storeId: number, code: string): Promise<Discount | null> {
    return manager
      .createQueryBuilder(Discount, 'd')
      .setLock('pessimistic_write')
      .where('d.store_id = :storeId AND d.code_key = :codeKey', { storeId, codeKey: code.trim().toLowerCase() })
      .getOne();
  }

  /** Whether this email already holds a pending or approved order with the coupon. */
  async isHeldByEmail(manager: EntityManager, discountId: number, email: string): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM orders o JOIN customers c ON c.id = o.customer_id
        WHERE o.discount_id = $1 AND c.email = $2 AND o.status IN ('pending', 'approved') LIMIT 1`,
      [discountId, email.toLowerCase()],
    );
    return rows.length > 0;
  }

  async incrementUse(manager: EntityManager, id: number): Promise<void> {
    await manager.increment(Discount, { id }, 'usedCount', 1);
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
