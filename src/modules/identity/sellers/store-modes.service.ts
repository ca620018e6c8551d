import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { NotFoundError } from '../../../common/errors/app-error';
import { SellersRepository } from './sellers.repository';
import { Store } from './store.entity';

export type StoreMode = 'live' | 'test';

/** Entries kept of {@link StoreModes.isTest}'s answers before the memo starts over. */
const MEMO_LIMIT = 10_000;

/**
 * The two modes of a store (README, *Test mode*): the live store and its test store, a store of its
 * own linked by `liveStoreId`. Every resource belongs to one store, so a test key (which resolves to
 * the test store) reaches test data only and a live key live data only; the other mode's ids are
 * simply another store's, that is 404.
 */
@Injectable()
export class StoreModes {
  /** A store never changes mode: whether each store asked about is a test store. */
  private readonly memo = new Map<number, boolean>();

  constructor(private readonly stores: SellersRepository) {}

  /**
   * Whether `storeId` is the test side of a store (false for an unknown id). Inside a transaction,
   * pass its `manager`: the question then takes no second connection.
   */
  async isTest(storeId: number, manager?: EntityManager): Promise<boolean> {
    const known = this.memo.get(storeId);
    if (known !== undefined) return known;
    const store = await this.stores.findStore(storeId, manager);
    if (!store) return false;
    if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
    this.memo.set(storeId, store.liveStoreId !== null);
    return store.liveStoreId !== null;
  }

  /** The live store of `storeId` (itself when it is live). */
  async liveStoreOf(storeId: number): Promise<Store> {
    const store = await this.stores.findStore(storeId);
    if (!store) throw new NotFoundError();
    if (store.liveStoreId === null) return store;
    const live = await this.stores.findStore(store.liveStoreId);
    if (!live) throw new NotFoundError();
    return live;
  }

  /** The store of `mode` that goes with `storeId` (either side); the test store is made on first use. */
  async storeFor(storeId: number, mode: StoreMode): Promise<Store> {
    const live = await this.liveStoreOf(storeId);
    if (mode === 'live') return live;
    const test = await this.stores.findOrCreateTestStore(live);
    this.memo.set(test.id, true);
    return test;
  }

  /** The test store of a live store, or null while it has none. */
  findTestStoreOf(liveStoreId: number): Promise<Store | null> {
    return this.stores.findTestStoreOf(liveStoreId);
  }
}
