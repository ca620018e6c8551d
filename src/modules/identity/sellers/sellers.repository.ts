import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Seller } from './seller.entity';
import { Store } from './store.entity';

@Injectable()
export class SellersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private manager(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  findByEmail(email: string, manager?: EntityManager): Promise<Seller | null> {
    return this.manager(manager).findOneBy(Seller, { email: email.toLowerCase() });
  }

  findById(id: number, manager?: EntityManager): Promise<Seller | null> {
    return this.manager(manager).findOneBy(Seller, { id });
  }

  findStoreOfSeller(sellerId: number, manager?: EntityManager): Promise<Store | null> {
    return this.manager(manager).findOne(Store, { where: { sellerId }, order: { id: 'ASC' } });
  }

  findStore(storeId: number, manager?: EntityManager): Promise<Store | null> {
    return this.manager(manager).findOneBy(Store, { id: storeId });
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
