import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { Scope } from '../scopes';

/** An access/refresh token pair issued for a grant; both stored as SHA-256 hashes (the security schemes of the OpenAPI description). */
@Entity('oauth_tokens')
export class OAuthToken {
  @PrimaryGeneratedColumn()
  id: number;

  @Index()
  @Column()
  grantId: number;

  @Column()
  appId: number;

  @Column()
  storeId: number;

  @Column()
  sellerId: number;

  @Index({ unique: true })
  @Column({ type: 'char', length: 64 })
  accessTokenHash: string;

  @Index({ unique: true })
  @Column({ type: 'char', length: 64 })
  refreshTokenHash: string;

  @Column({ type: 'text', array: true })
  scopes: Scope[];

  /** Expiry of the access token (30 days); the refresh token lives as long as its grant. */
  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  /** Set when the refresh token was exchanged; presenting it again is reuse. */
  @Column({ type: 'timestamptz', nullable: true })
  rotatedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
