import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { ApiKey } from './api-key.entity';

@Injectable()
export class ApiKeysRepository {
  constructor(@InjectRepository(ApiKey) private readonly repo: Repository<ApiKey>) {}

  findActiveByHash(tokenHash: string): Promise<ApiKey | null> {
    return this.repo.findOneBy({ tokenHash, revokedAt: IsNull() });
  }

  listForStore(storeId: number): Promise<ApiKey[]> {
    return this.repo.find({ where: { storeId }, order: { id: 'DESC' } });
  }

  create(key: Pick<ApiKey, 'storeId' | 'sellerId' | 'name' | 'prefix' | 'tokenHash' | 'scopes'>): Promise<ApiKey> {
    return this.repo.save(this.repo.create(key));
  }

  /** Revokes a key of this store; false when there is none. */
  async revoke(storeId: number, id: number): Promise<boolean> {
    const result = await this.repo.update({ id, storeId, revokedAt: IsNull() }, { revokedAt: () => 'now()' });
    return (result.affected ?? 0) > 0;
  }

  async touchLastUsed(id: number, at: Date): Promise<void> {
    await this.repo.update({ id }, { lastUsedAt: at });
  }
}
