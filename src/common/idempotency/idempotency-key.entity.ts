import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export type IdempotencyKeyState = 'in_flight' | 'completed';

/**
 * An `Idempotency-Key` seen on a POST under `/v1` (README, *Choices where the contract is silent*), scoped to the store and the token
 * that sent it, kept 24 hours.
 */
@Entity('idempotency_keys')
@Index(['storeId', 'principalKey', 'key'], { unique: true })
@Index(['createdAt'])
export class IdempotencyKey {
  @PrimaryGeneratedColumn()
  id: number;

  @Column()
  storeId: number;

  /** `api_key:12` or `oauth:7`: two tokens of one store never share keys. */
  @Column({ type: 'varchar', length: 64 })
  principalKey: string;

  @Column({ type: 'varchar', length: 255 })
  key: string;

  /** SHA-256 of the route and the canonical JSON body. */
  @Column({ type: 'char', length: 64 })
  requestHash: string;

  @Column({ type: 'varchar', length: 16, default: 'in_flight' })
  state: IdempotencyKeyState;

  @Column({ type: 'int', nullable: true })
  responseStatus: number | null;

  /** The answer's body, sealed (IdempotencyRepository): a JSON string of the ciphertext. */
  @Column({ type: 'jsonb', nullable: true })
  responseBody: unknown;

  /**
   * The claim of the request running with the key: a random id its process knows, and until when
   * the claim holds unless renewed (IdempotencyClaims renews it while the request runs). A claim
   * whose process died lapses, and a retry with the same request takes the key over. Null once
   * completed.
   */
  @Column({ type: 'uuid', nullable: true })
  leaseId: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  leaseExpiresAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
