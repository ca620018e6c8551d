import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { PageRequest } from '../../../common/pagination/pagination';
import { PreparedStatement } from '../../../database/prepared-statements';
import { LicenseInstance } from './license-instance.entity';
import { LicenseKey, LicenseStatus } from './license-key.entity';

export interface LicenseFilters {
  productId?: number;
  productPid?: string;
  /** The keys an order shows: its own, and for an order of a subscription the subscription's. */
  order?: { id: number; subscriptionId: number | null };
  status?: LicenseStatus;
}

@Injectable()
export class LicensesRepository {
  private readonly renewal: PreparedStatement;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.renewal = new PreparedStatement(
      dataSource,
      `UPDATE "license_keys" SET "expires_at" = $2, "updated_at" = now(),
         "status" = CASE WHEN "status" = 'expired' THEN 'active' ELSE "status" END
       WHERE "subscription_id" = $1`,
    );
  }

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  /** Inserts the keys of an approval; a key already issued for (order, product) stays as it is. */
  async insertMissing(manager: EntityManager, keys: Array<Omit<LicenseKey, 'id' | 'createdAt' | 'updatedAt'>>) {
    if (!keys.length) return;
    await manager.createQueryBuilder().insert().into(LicenseKey).values(keys).orIgnore().execute();
  }

  ofOrder(orderId: number, manager?: EntityManager): Promise<LicenseKey[]> {
    return this.m(manager).find(LicenseKey, { where: { orderId }, order: { id: 'ASC' } });
  }

  ofSubscription(subscriptionId: number, manager?: EntityManager): Promise<LicenseKey[]> {
    return this.m(manager).find(LicenseKey, { where: { subscriptionId }, order: { id: 'ASC' } });
  }

  async ofOrders(orderIds: number[]): Promise<Map<number, LicenseKey[]>> {
    const map = new Map<number, LicenseKey[]>();
    if (!orderIds.length) return map;
    const rows = await this.m().find(LicenseKey, { where: { orderId: In(orderIds) }, order: { id: 'ASC' } });
    for (const row of rows) map.set(row.orderId, [...(map.get(row.orderId) ?? []), row]);
    return map;
  }

  findOfStore(storeId: number, id: number, manager?: EntityManager): Promise<LicenseKey | null> {
    return this.m(manager).findOneBy(LicenseKey, { storeId, id });
  }

  findByHash(keyHash: string, manager?: EntityManager): Promise<LicenseKey | null> {
    return this.m(manager).findOneBy(LicenseKey, { keyHash });
  }

  /** The key's row, locked until the transaction ends: activations of one key queue here. */
  lockByHash(manager: EntityManager, keyHash: string): Promise<LicenseKey | null> {
    return manager
      .createQueryBuilder(LicenseKey, 'k')
      .setLock('pessimistic_write')
      .where('k.key_hash = :keyHash', { keyHash })
      .getOne();
  }

  async listOfStore(storeId: number, filters: LicenseFilters, page: PageRequest): Promise<[LicenseKey[], number]> {
    const qb = this.m().createQueryBuilder(LicenseKey, 'k').where('k.store_id = :storeId', { storeId });
    if (filters.productId !== undefined || filters.productPid !== undefined)
      qb.andWhere('(k.product_id = :productId OR k.product_pid = :productPid)', {
        productId: filters.productId ?? -1,
        productPid: filters.productPid ?? '',
      });
    if (filters.order?.subscriptionId != null)
      qb.andWhere('(k.order_id = :orderId OR k.subscription_id = :subscriptionId)', {
        orderId: filters.order.id,
        subscriptionId: filters.order.subscriptionId,
      });
    else if (filters.order) qb.andWhere('k.order_id = :orderId', { orderId: filters.order.id });
    if (filters.status) qb.andWhere('k.status = :status', { status: filters.status });
    return qb
      .orderBy('k.created_at', 'DESC')
      .addOrderBy('k.id', 'DESC')
      .skip(page.offset)
      .take(page.perPage)
      .getManyAndCount();
  }

  save(manager: EntityManager, key: LicenseKey): Promise<LicenseKey> {
    return manager.save(LicenseKey, key);
  }

  async setStatus(
    manager: EntityManager,
    where: { orderId?: number; subscriptionId?: number },
    from: LicenseStatus[],
    to: LicenseStatus,
    expiredAt?: Date,
  ): Promise<void> {
    const qb = manager
      .createQueryBuilder()
      .update(LicenseKey)
      .set(
        expiredAt
          ? { status: to, expiresAt: () => 'LEAST(COALESCE(expires_at, :expiredAt), :expiredAt)' }
          : { status: to },
      )
      .where('status IN (:...from)', { from });
    if (expiredAt) qb.setParameter('expiredAt', expiredAt);
    if (where.orderId !== undefined && where.subscriptionId !== undefined)
      qb.andWhere('(order_id = :orderId OR subscription_id = :subscriptionId)', where);
    else if (where.orderId !== undefined) qb.andWhere('order_id = :orderId', where);
    else qb.andWhere('subscription_id = :subscriptionId', where);
    await qb.execute();
  }

  /** A renewal: every key of the subscription lives until the new `end_date`; expired ones are back. */
  async renew(manager: EntityManager, subscriptionId: number, expiresAt: Date): Promise<void> {
    await this.renewal.rows([subscriptionId, expiresAt], manager);
  }

  instancesOf(licenseKeyId: number, manager?: EntityManager): Promise<LicenseInstance[]> {
    return this.m(manager).find(LicenseInstance, { where: { licenseKeyId }, order: { id: 'ASC' } });
  }

  findInstance(manager: EntityManager, licenseKeyId: number, id: number): Promise<LicenseInstance | null> {
    return manager.findOneBy(LicenseInstance, { licenseKeyId, id });
  }

  addInstance(manager: EntityManager, licenseKeyId: number, name: string): Promise<LicenseInstance> {
    return manager.save(LicenseInstance, manager.create(LicenseInstance, { licenseKeyId, name }));
  }

  async removeInstance(manager: EntityManager, instance: LicenseInstance): Promise<void> {
    await manager.delete(LicenseInstance, { id: instance.id });
  }
}
