import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, IsNull } from 'typeorm';
import { turnLoader } from '../../../database/batch';
import { EntityColumns } from '../../../database/entity-sql';
import { PreparedStatement } from '../../../database/prepared-statements';
import { TransactionMemo } from '../../../database/transaction-memo';
import { Seller } from './seller.entity';
import { Store } from './store.entity';

/** What Settings → Store edits: shared by a store's live and test sides. */
export type StoreSettings = Pick<Store, 'name' | 'brand' | 'contactNumber' | 'logoUrl' | 'currency'>;

@Injectable()
export class SellersRepository {
  private readonly stores: EntityColumns<Store>;
  /**
   * Logs a seller out everywhere (identity's README, *Password reset*): deletes their dashboard
   * sessions (`web_sessions`, one JSON document per session holding `sellerId`), except one (`$2`),
   * the session of the request that changed the password. A browser whose session is gone is sent
   * to the login page on its next request.
   */
  private readonly endSessions: PreparedStatement;
  private readonly storesById: PreparedStatement;
  private readonly storeIn: TransactionMemo<Store | null>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.stores = new EntityColumns(dataSource, Store);
    this.storeIn = new TransactionMemo(dataSource);
    this.endSessions = new PreparedStatement(
      dataSource,
      `DELETE FROM web_sessions WHERE sess->>'sellerId' = $1 AND sid <> $2`,
    );
    this.storesById = new PreparedStatement(
      dataSource,
      `SELECT ${this.stores.returning()} FROM ${this.stores.table} WHERE "id" = ANY($1)`,
    );
  }

  private manager(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  findByEmail(email: string, manager?: EntityManager): Promise<Seller | null> {
    return this.manager(manager).findOneBy(Seller, { email: email.toLowerCase() });
  }

  findById(id: number, manager?: EntityManager): Promise<Seller | null> {
    return this.manager(manager).findOneBy(Seller, { id });
  }

  /** The seller's live store (its test store, when there is one, is reached through it). */
  findStoreOfSeller(sellerId: number, manager?: EntityManager): Promise<Store | null> {
    return this.manager(manager).findOne(Store, { where: { sellerId, liveStoreId: IsNull() }, order: { id: 'ASC' } });
  }

  findTestStoreOf(liveStoreId: number, manager?: EntityManager): Promise<Store | null> {
    return this.manager(manager).findOneBy(Store, { liveStoreId });
  }

  /**
   * The test store of a live store, made on first use as a copy of its settings (name, brand,
   * contact number, logo, currency) and email setting. Two callers at once make one store (the unique index on `live_store_id`).
   */
  async findOrCreateTestStore(live: Store): Promise<Store> {
    await this.manager()
      .createQueryBuilder()
      .insert()
      .into(Store)
      .values({
        sellerId: live.sellerId,
        liveStoreId: live.id,
        name: live.name,
        brand: live.brand,
        contactNumber: live.contactNumber,
        logoUrl: live.logoUrl,
        currency: live.currency,
        emailCustomers: live.emailCustomers,
      })
      .orIgnore()
      .execute();
    return (await this.findTestStoreOf(live.id))!;
  }

  /**
   * The store by id (every order event and customer email reads its store); with `manager`, read
   * in the caller's transaction, once per transaction (the orders of a group of payments share
   * their store). Outside a transaction, the stores asked for in one turn of the event loop (the
   * receipts of a batch of jobs) are read by one statement.
   */
  findStore(storeId: number, manager?: EntityManager): Promise<Store | null> {
    if (manager?.queryRunner?.isTransactionActive)
      return this.storeIn.get(manager, String(storeId), () => this.stores.findOneBy({ id: storeId }, manager));
    return this.storeById.load(storeId);
  }

  private readonly storeById = turnLoader<number, Store | null>((ids) => this.findStores(ids));

  /** Stores by id, one statement; one answer per id, in order (null for an unknown one). */
  private async findStores(ids: readonly number[], manager?: EntityManager): Promise<Array<Store | null>> {
    const rows = await this.storesById.rows([ids], manager);
    const byId = new Map(rows.map((row) => [row.id as number, this.stores.hydrate(row)]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  /**
   * A new password hash, and every dashboard session of the seller ended but `keepSid` (the one
   * that changed it), in one transaction (identity's README, *Password reset*).
   */
  async replacePassword(
    sellerId: number,
    passwordHash: string,
    options: { keepSid?: string; manager?: EntityManager } = {},
  ): Promise<void> {
    const work = async (manager: EntityManager) => {
      await manager.update(Seller, { id: sellerId }, { passwordHash });
      await this.endSessions.rows([String(sellerId), options.keepSid ?? ''], manager);
    };
    await (options.manager ? work(options.manager) : this.dataSource.transaction(work));
  }

  /**
   * Settings → Store: the live store and its test store (when it has one) take the same values in
   * one statement, so buyers of either mode see the same store.
   */
  async updateStoreSettings(liveStoreId: number, settings: StoreSettings): Promise<void> {
    await this.manager()
      .createQueryBuilder()
      .update(Store)
      .set(settings)
      .where('id = :id OR live_store_id = :id', { id: liveStoreId })
      .execute();
  }

  /** The stores of these ids with their sellers (for pages that show several stores: the review queue). */
  findStoresWithSellers(storeIds: number[]): Promise<Store[]> {
    if (!storeIds.length) return Promise.resolve([]);
    return this.manager().find(Store, { where: { id: In(storeIds) }, relations: { seller: true } });
  }

  /** Whether the seller may review products (read on each dashboard request, so a revoke counts at once). */
  async isOperator(sellerId: number): Promise<boolean> {
    const seller = await this.manager().findOne(Seller, {
      where: { id: sellerId },
      select: { id: true, operator: true },
    });
    return seller?.operator ?? false;
  }

  /** False when no seller has this email. */
  async setOperator(email: string, operator: boolean): Promise<boolean> {
    const result = await this.manager().update(Seller, { email: email.toLowerCase() }, { operator });
    return (result.affected ?? 0) > 0;
  }

  async setEmailCustomers(storeId: number, on: boolean): Promise<void> {
    await this.manager().update(Store, { id: storeId }, { emailCustomers: on });
  }

  /** Seller and store commit together: a seller never exists without a store. */
  createWithStore(
    seller: Pick<Seller, 'name' | 'email' | 'passwordHash'>,
    store: Pick<Store, 'name' | 'brand' | 'currency'>,
  ): Promise<{ seller: Seller; store: Store }> {
    return this.dataSource.transaction(async (manager) => {
      const savedSeller = await manager.save(manager.create(Seller, { ...seller, email: seller.email.toLowerCase() }));
      const savedStore = await manager.save(manager.create(Store, { ...store, sellerId: savedSeller.id }));
      return { seller: savedSeller, store: savedStore };
    });
  }
}
