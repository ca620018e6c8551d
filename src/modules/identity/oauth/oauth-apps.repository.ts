import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { OAuthApp } from './oauth-app.entity';

@Injectable()
export class OAuthAppsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private manager(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  create(
    app: Pick<OAuthApp, 'storeId' | 'sellerId' | 'name' | 'clientId' | 'clientSecretHash' | 'redirectUris'>,
    manager?: EntityManager,
  ): Promise<OAuthApp> {
    const m = this.manager(manager);
    return m.save(m.create(OAuthApp, { ...app, active: true }));
  }

  findByClientId(clientId: string, manager?: EntityManager): Promise<OAuthApp | null> {
    return this.manager(manager).findOneBy(OAuthApp, { clientId });
  }

  findById(id: number, manager?: EntityManager): Promise<OAuthApp | null> {
    return this.manager(manager).findOneBy(OAuthApp, { id });
  }

  findForStore(storeId: number, id: number, manager?: EntityManager): Promise<OAuthApp | null> {
    return this.manager(manager).findOneBy(OAuthApp, { storeId, id });
  }

  listForStore(storeId: number, manager?: EntityManager): Promise<OAuthApp[]> {
    return this.manager(manager).find(OAuthApp, { where: { storeId }, order: { id: 'DESC' } });
  }

  /** False when the store has no such app. */
  async update(
    storeId: number,
    id: number,
    changes: Partial<Pick<OAuthApp, 'active' | 'clientSecretHash'>>,
    manager?: EntityManager,
  ): Promise<boolean> {
    const result = await this.manager(manager).update(OAuthApp, { storeId, id }, changes);
    return (result.affected ?? 0) > 0;
  }
}
