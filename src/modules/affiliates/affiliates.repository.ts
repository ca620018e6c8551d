import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { PageRequest } from '../../common/pagination/pagination';
import { Affiliate } from './affiliate.entity';

@Injectable()
export class AffiliatesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private manager(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  /** The store's affiliate, unless deleted. */
  findOfStore(storeId: number, id: number, manager?: EntityManager): Promise<Affiliate | null> {
    return this.manager(manager).findOneBy(Affiliate, { storeId, id, deletedAt: IsNull() });
  }

  /** The store's affiliate, deleted since or not (what an order it referred still names). */
  findEvenDeleted(storeId: number, id: number, manager?: EntityManager): Promise<Affiliate | null> {
    return this.manager(manager).findOneBy(Affiliate, { storeId, id });
  }

  create(
    input: Pick<Affiliate, 'storeId' | 'name' | 'email' | 'commissionPercent'>,
    manager?: EntityManager,
  ): Promise<Affiliate> {
    const repo = this.manager(manager).getRepository(Affiliate);
    return repo.save(repo.create(input));
  }

  /** Newest first; served by the (store_id, created_at) index. */
  listOfStore(storeId: number, page: PageRequest, manager?: EntityManager): Promise<[Affiliate[], number]> {
    return this.manager(manager).findAndCount(Affiliate, {
      where: { storeId, deletedAt: IsNull() },
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: page.offset,
      take: page.perPage,
    });
  }

  /** Whether an affiliate of this store was deleted now (its row is kept, marked deleted). */
  async deleteOfStore(storeId: number, id: number, manager?: EntityManager): Promise<boolean> {
    const result = await this.manager(manager).update(
      Affiliate,
      { storeId, id, deletedAt: IsNull() },
      { deletedAt: () => 'now()' },
    );
    return (result.affected ?? 0) > 0;
  }
}
