import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, IsNull, Repository } from 'typeorm';
import { PreparedStatement } from '../../../database/prepared-statements';
import { EntityColumns, PickedColumns } from '../../../database/entity-sql';
import { ApiKey } from './api-key.entity';

@Injectable()
export class ApiKeysRepository {
  /** What authentication needs of a key: the principal's fields. */
  private readonly principal: PickedColumns<ApiKey, 'id' | 'storeId' | 'sellerId' | 'scopes'>;
  private readonly activeByHash: PreparedStatement;

  constructor(
    @InjectRepository(ApiKey) private readonly repo: Repository<ApiKey>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    const columns = new EntityColumns(dataSource, ApiKey);
    this.principal = columns.pick('id', 'storeId', 'sellerId', 'scopes');
    // One JSON column rather than four: pg's per-query cost of describing columns, and the parsing
    // of the scopes' array literal, are then JSON.parse's.
    this.activeByHash = new PreparedStatement(
      dataSource,
      `SELECT json_build_array(${this.principal.jsonValues('k')}, "s"."currency") FROM ${columns.table} "k" ` +
        `JOIN "stores" "s" ON "s"."id" = "k"."store_id" WHERE "k"."token_hash" = $1 AND "k"."revoked_at" IS NULL`,
    );
  }

  /** Runs on every authenticated request: one lookup on the unique token_hash index, no query builder. */
  async findActiveByHash(
    tokenHash: string,
  ): Promise<(Pick<ApiKey, 'id' | 'storeId' | 'sellerId' | 'scopes'> & { currency: string }) | null> {
    const [row] = await this.activeByHash.arrays([tokenHash]);
    if (!row) return null;
    const values = row[0] as unknown[];
    return { ...this.principal.read(values), currency: values[this.principal.length] as string };
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
