import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { deliverySecret } from '../../config/delivery-secret';
import { PreparedStatement } from '../../database/prepared-statements';
import { SecretBox } from '../crypto';
import { IdempotencyKey } from './idempotency-key.entity';

export interface IdempotencyScope {
  storeId: number;
  principalKey: string;
  key: string;
}

/** The stored answer of a completed request that this process cannot open (see `find`). */
export const UNREADABLE_ANSWER = Symbol('unreadable answer');

/** A key held by one running request: its scope and the lease id only that request knows. */
export interface IdempotencyClaim extends IdempotencyScope {
  leaseId: string;
}

/**
 * The keys' records. A stored answer is sealed (AES-256-GCM under a key derived from
 * `DELIVERY_SECRET`): it may hold a pay token or license keys, which are otherwise kept only
 * hashed or encrypted, so a database dump alone replays nothing readable.
 */
@Injectable()
export class IdempotencyRepository {
  private readonly box: SecretBox;
  private readonly statements: {
    claim: PreparedStatement;
    renew: PreparedStatement;
    complete: PreparedStatement;
    release: PreparedStatement;
    purgeExpired: PreparedStatement;
  };

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.box = new SecretBox(deliverySecret(config), 'idempotent-responses');
    this.statements = {
      // Taken over: a record past its lifetime, or a claim of the same request whose lease lapsed
      // (its process stopped mid-request and nothing stored an answer).
      claim: new PreparedStatement(
        dataSource,
        `INSERT INTO idempotency_keys
           (store_id, principal_key, key, request_hash, state, lease_id, lease_expires_at)
         VALUES ($1, $2, $3, $4, 'in_flight', $5, now() + make_interval(secs => $7))
         ON CONFLICT (store_id, principal_key, key) DO UPDATE
           SET request_hash = EXCLUDED.request_hash, state = 'in_flight', response_status = NULL,
               response_body = NULL, created_at = now(), lease_id = EXCLUDED.lease_id,
               lease_expires_at = EXCLUDED.lease_expires_at
           WHERE idempotency_keys.created_at < now() - make_interval(secs => $6)
              OR (idempotency_keys.state = 'in_flight'
                  AND idempotency_keys.request_hash = EXCLUDED.request_hash
                  AND idempotency_keys.lease_expires_at < now())
         RETURNING id`,
      ),
      renew: new PreparedStatement(
        dataSource,
        `UPDATE idempotency_keys SET lease_expires_at = now() + make_interval(secs => $5)
         WHERE store_id = $1 AND principal_key = $2 AND key = $3 AND lease_id = $4 AND state = 'in_flight'`,
      ),
      complete: new PreparedStatement(
        dataSource,
        `UPDATE idempotency_keys
         SET state = 'completed', response_status = $5, response_body = $6, lease_id = NULL, lease_expires_at = NULL
         WHERE store_id = $1 AND principal_key = $2 AND key = $3 AND lease_id = $4`,
      ),
      release: new PreparedStatement(
        dataSource,
        `DELETE FROM idempotency_keys
         WHERE store_id = $1 AND principal_key = $2 AND key = $3 AND lease_id = $4 AND state = 'in_flight'`,
      ),
      purgeExpired: new PreparedStatement(
        dataSource,
        `DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(secs => $1)`,
      ),
    };
  }

  /**
   * Claims the key for a request, atomically: true when this request is the first (or the earlier
   * record had expired, or was the same request's lapsed claim), false when another record holds it.
   * Records are taken over in the same statement, so two racing requests never both win.
   */
  async claim(
    claim: IdempotencyClaim,
    requestHash: string,
    ttlSeconds: number,
    leaseSeconds: number,
  ): Promise<boolean> {
    const rows = await this.statements.claim.rows([
      claim.storeId,
      claim.principalKey,
      claim.key,
      requestHash,
      claim.leaseId,
      ttlSeconds,
      leaseSeconds,
    ]);
    return rows.length > 0;
  }

  /** The record holding the key, its stored answer opened. */
  async find(scope: IdempotencyScope): Promise<IdempotencyKey | null> {
    const { storeId, principalKey, key } = scope;
    const record = await this.dataSource.manager.findOneBy(IdempotencyKey, { storeId, principalKey, key });
    // A sealed answer is a JSON string; an object is one stored before answers were sealed.
    if (typeof record?.responseBody !== 'string') return record;
    try {
      record.responseBody = JSON.parse(this.box.open(record.responseBody));
    } catch {
      // Sealed under another `DELIVERY_SECRET` (changed since, or another host's): the request was
      // answered, so it must not run again; the guard refuses the key instead of replaying it.
      record.responseBody = UNREADABLE_ANSWER;
    }
    return record;
  }

  /** Extends a running request's claim; nothing once it was completed, released or taken over. */
  async renew(claim: IdempotencyClaim, leaseSeconds: number): Promise<void> {
    await this.statements.renew.rows([claim.storeId, claim.principalKey, claim.key, claim.leaseId, leaseSeconds]);
  }

  /** Stores the answer for replays, if the key is still this claim's. */
  async complete(claim: IdempotencyClaim, status: number, body: unknown): Promise<void> {
    await this.statements.complete.rows([
      claim.storeId,
      claim.principalKey,
      claim.key,
      claim.leaseId,
      status,
      JSON.stringify(this.box.seal(JSON.stringify(body))),
    ]);
  }

  /** Deletes records past their lifetime (index on created_at). */
  async purgeExpired(ttlSeconds: number): Promise<void> {
    await this.statements.purgeExpired.rows([ttlSeconds]);
  }

  /** A failed request leaves nothing behind: the same key may be retried. */
  async release(claim: IdempotencyClaim): Promise<void> {
    await this.statements.release.rows([claim.storeId, claim.principalKey, claim.key, claim.leaseId]);
  }
}
