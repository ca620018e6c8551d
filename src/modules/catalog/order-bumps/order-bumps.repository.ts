import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { MAX_INT4 } from '../../../common/http/path-id';
import { Cents, toCents } from '../../../common/money';
import { PreparedStatement } from '../../../database/prepared-statements';
import { inTransaction } from '../../../database/transaction';
import { OrderBump } from './order-bump.entity';

/** A bump as offered: the bump's own row plus the offered product's public fields. */
export interface OfferedBump {
  id: number;
  /** The product whose checkout offers the bump. */
  productId: number;
  bumpProduct: { id: number; pid: string; name: string };
  price: Cents;
  createdAt: Date;
}

interface OfferedBumpRow {
  id: number;
  product_id: number;
  bump_product_id: number;
  bump_product_pid: string;
  bump_product_name: string;
  price: string;
  created_at: Date;
}

export class DuplicateBumpError extends Error {}

@Injectable()
export class OrderBumpsRepository {
  private readonly offered: PreparedStatement;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.offered = new PreparedStatement(
      dataSource,
      `SELECT b.id, b.product_id, b.price, b.created_at,
              p.id AS bump_product_id, p.pid AS bump_product_pid, p.name AS bump_product_name
         FROM order_bumps b
         JOIN products p ON p.id = b.bump_product_id AND p.store_id = b.store_id
        WHERE b.store_id = $1 AND b.product_id = $2
        ORDER BY b.id`,
    );
  }

  private manager(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return inTransaction(this.dataSource, work);
  }

  /** Every bump offering or offered by a product that is being deleted, in the deleting transaction. */
  async deleteAllOfProduct(manager: EntityManager, storeId: number, productId: number): Promise<void> {
    await manager
      .createQueryBuilder()
      .delete()
      .from(OrderBump)
      .where('store_id = :storeId AND (product_id = :productId OR bump_product_id = :productId)', {
        storeId,
        productId,
      })
      .execute();
  }

  /** Throws {@link DuplicateBumpError} when the pair exists (unique index on product, bump product). */
  async create(
    input: Pick<OrderBump, 'storeId' | 'productId' | 'bumpProductId' | 'price'>,
    manager?: EntityManager,
  ): Promise<OrderBump> {
    const repo = this.manager(manager).getRepository(OrderBump);
    try {
      return await repo.save(repo.create(input));
    } catch (error) {
      if (error instanceof QueryFailedError && (error.driverError as { code?: string }).code === '23505')
        throw new DuplicateBumpError();
      throw error;
    }
  }

  /**
   * The product's bumps in the order the seller added them, with the offered product in the same
   * query. A bump whose product is gone is not offered.
   */
  async listForProduct(storeId: number, productId: number, manager?: EntityManager): Promise<OfferedBump[]> {
    const rows = await this.offered.rows<OfferedBumpRow>([storeId, productId], manager);
    return rows.map(toOffered);
  }

  /** Whether a bump of this store's product was deleted. */
  async delete(storeId: number, productId: number, bumpId: number, manager?: EntityManager): Promise<boolean> {
    if (!Number.isInteger(bumpId) || bumpId < 1 || bumpId > MAX_INT4) return false;
    const result = await this.manager(manager).delete(OrderBump, { storeId, productId, id: bumpId });
    return (result.affected ?? 0) > 0;
  }
}

function toOffered(row: OfferedBumpRow): OfferedBump {
  return {
    id: row.id,
    productId: row.product_id,
    bumpProduct: { id: row.bump_product_id, pid: row.bump_product_pid, name: row.bump_product_name },
    price: toCents(row.price),
    createdAt: row.created_at,
  };
}
