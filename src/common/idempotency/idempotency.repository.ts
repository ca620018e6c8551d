import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PreparedStatement } from '../../database/prepared-statements';
import { IdempotencyKey } from './idempotency-key.entity';

export interface IdempotencyScope {
  storeId: number;
  principalKey: string;
  key: string;
}

@Injectable()
export class IdempotencyRepository {
  private readonly statements: { claim: PreparedStatement; purgeExpired: PreparedStatement };

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.statements = {
      claim: new PreparedStatement(
        dataSource,
        `INSERT INTO idempotency_keys (store_id, principal_key, key, request_hash, state)
         VALUES ($1, $2, $3, $4, 'in_flight')
         ON CONFLICT (store_id, principal_key, key) DO UPDATE
           SET request_hash = EXCLUDED.request_hash, state = 'in_flight', response_status = NULL,
               response_body = NULL, created_at = now()
           WHERE idempotency_keys.created_at < now() - make_interval(secs => $5)
         RETURNING id`,
      ),
      purgeExpired: new PreparedStatement(
        dataSource,
        `DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(secs => $1)`,
      ),
    };
  }

  /**
   * Claims the key for a request, atomically: true when this request is the first (or the earlier
   * record had expired), false when another record holds it. Expired records are taken over in the
   * same statement, so two racing requests never both win.
   */
  async claim(scope: IdempotencyScope, requestHash: string, ttlSeconds: number): Promise<boolean> {
    const rows = await this.statements.claim.rows([
      scope.storeId,
      scope.principalKey,
      scope.key,
      requestHash,
      ttlSeconds,
    ]);
    return rows.length > 0;
  }

  find(scope: IdempotencyScope): Promise<IdempotencyKey | null> {
    return this.dataSource.manager.findOneBy(IdempotencyKey, { ...scope });
  }

  async complete(scope: IdempotencyScope, status: number, body: unknown): Promise<void> {
    await this.dataSource.manager.update(
      IdempotencyKey,
      { ...scope },
      { state: 'completed', responseStatus: status, responseBody: body as object },
    );
  }

  /** Deletes records past their lifetime (index on created_at). */
  async purgeExpired(ttlSeconds: number): Promise<void> {
    await this.statements.purgeExpired.rows([ttlSeconds]);
  }

  /** A failed request leaves nothing behind: the same key may be retried. */
  async release(scope: IdempotencyScope): Promise<void> {
    await this.dataSource.manager.delete(IdempotencyKey, { ...scope, state: 'in_flight' });
  }
}
