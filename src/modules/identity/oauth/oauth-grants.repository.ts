import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { OAuthApp } from './oauth-app.entity';
import { OAuthAuthorizationCode } from './oauth-authorization-code.entity';
import { OAuthGrant } from './oauth-grant.entity';
import { OAuthToken } from './oauth-token.entity';
import { Store } from '../sellers/store.entity';

/** Grants with their authorization codes and tokens: the aggregate code/refresh reuse revokes. */
@Injectable()
export class OAuthGrantsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private manager(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** The grant and its code commit together. */
  createGrantWithCode(
    grant: Pick<OAuthGrant, 'appId' | 'storeId' | 'sellerId' | 'scopes'>,
    code: Pick<OAuthAuthorizationCode, 'codeHash' | 'redirectUri' | 'state' | 'codeChallenge' | 'expiresAt'>,
  ): Promise<{ grant: OAuthGrant; code: OAuthAuthorizationCode }> {
    return this.dataSource.transaction(async (m) => {
      const savedGrant = await m.save(m.create(OAuthGrant, grant));
      const savedCode = await m.save(
        m.create(OAuthAuthorizationCode, { ...code, grantId: savedGrant.id, appId: savedGrant.appId }),
      );
      return { grant: savedGrant, code: savedCode };
    });
  }

  findGrant(id: number, manager?: EntityManager): Promise<OAuthGrant | null> {
    return this.manager(manager).findOneBy(OAuthGrant, { id });
  }

  findCodeByHash(codeHash: string, manager?: EntityManager): Promise<OAuthAuthorizationCode | null> {
    return this.manager(manager).findOneBy(OAuthAuthorizationCode, { codeHash });
  }

  /** Marks the code used; false when another exchange got there first. */
  async consumeCode(id: number, at: Date, manager?: EntityManager): Promise<boolean> {
    const result = await this.manager(manager).update(OAuthAuthorizationCode, { id, usedAt: IsNull() }, { usedAt: at });
    return (result.affected ?? 0) > 0;
  }

  createToken(
    token: Pick<
      OAuthToken,
      'grantId' | 'appId' | 'storeId' | 'sellerId' | 'accessTokenHash' | 'refreshTokenHash' | 'scopes' | 'expiresAt'
    >,
    manager?: EntityManager,
  ): Promise<OAuthToken> {
    const m = this.manager(manager);
    return m.save(m.create(OAuthToken, token));
  }

  /** An unrevoked access token whose grant stands and whose app is active; expiry is the caller's. */
  /** The usable token with this hash and its store's currency (the principal's), or null. */
  async findUsableByAccessHash(accessTokenHash: string): Promise<{ token: OAuthToken; currency: string } | null> {
    const { entities, raw } = await this.dataSource.manager
      .createQueryBuilder(OAuthToken, 't')
      .innerJoin(OAuthGrant, 'g', 'g.id = t.grant_id AND g.revoked_at IS NULL')
      .innerJoin(OAuthApp, 'a', 'a.id = t.app_id AND a.active = true')
      .innerJoin(Store, 's', 's.id = t.store_id')
      .addSelect('s.currency', 'store_currency')
      .where('t.access_token_hash = :accessTokenHash AND t.revoked_at IS NULL', { accessTokenHash })
      .getRawAndEntities<{ store_currency: string }>();
    return entities.length ? { token: entities[0], currency: raw[0].store_currency } : null;
  }

  findByAccessHash(accessTokenHash: string, manager?: EntityManager): Promise<OAuthToken | null> {
    return this.manager(manager).findOneBy(OAuthToken, { accessTokenHash });
  }

  findByRefreshHash(refreshTokenHash: string, manager?: EntityManager): Promise<OAuthToken | null> {
    return this.manager(manager).findOneBy(OAuthToken, { refreshTokenHash });
  }

  /** Marks a refresh token exchanged; false when it was already rotated or revoked (reuse). */
  async markRotated(id: number, at: Date, manager?: EntityManager): Promise<boolean> {
    const result = await this.manager(manager).update(
      OAuthToken,
      { id, rotatedAt: IsNull(), revokedAt: IsNull() },
      { rotatedAt: at },
    );
    return (result.affected ?? 0) > 0;
  }

  async revokeToken(id: number, at: Date, manager?: EntityManager): Promise<void> {
    await this.manager(manager).update(OAuthToken, { id, revokedAt: IsNull() }, { revokedAt: at });
  }

  /** Revokes the grant and every token issued under it. */
  async revokeGrant(grantId: number, at: Date, manager?: EntityManager): Promise<void> {
    const m = this.manager(manager);
    await m.update(OAuthGrant, { id: grantId, revokedAt: IsNull() }, { revokedAt: at });
    await m.update(OAuthToken, { grantId, revokedAt: IsNull() }, { revokedAt: at });
  }
}
