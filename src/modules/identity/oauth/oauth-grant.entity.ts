import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { Scope } from '../scopes';

/**
 * One approval of an app by a seller. Its code and every token rotated from it belong to it, so
 * code reuse or refresh-token reuse revokes the whole chain at once.
 */
@Entity('oauth_grants')
export class OAuthGrant {
  @PrimaryGeneratedColumn()
  id: number;

  @Index()
  @Column()
  appId: number;

  @Column()
  storeId: number;

  @Column()
  sellerId: number;

  /** The scopes the seller approved: possibly a subset of those requested. */
  @Column({ type: 'text', array: true })
  scopes: Scope[];

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
