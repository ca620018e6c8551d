import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Affiliate } from './affiliate.entity';

@Injectable()
export class AffiliatesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  findOfStore(storeId: number, id: number, manager?: EntityManager): Promise<Affiliate | null> {
    return (manager ?? this.dataSource.manager).findOneBy(Affiliate, { storeId, id });
  }
}
