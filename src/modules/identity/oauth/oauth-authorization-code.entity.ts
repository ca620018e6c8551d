import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** An authorization code (the security schemes of the OpenAPI description): only its SHA-256 hash is stored. Single use, 10 minutes. */
@Entity('oauth_authorization_codes')
export class OAuthAuthorizationCode {
  @PrimaryGeneratedColumn()
  id: number;

  @Index()
  @Column()
  grantId: number;

  @Column()
  appId: number;

  @Index({ unique: true })
  @Column({ type: 'char', length: 64 })
  codeHash: string;

  @Column()
  redirectUri: string;

  /** The `state` of the authorization request; the exchange must present the same (the OpenAPI description). */
  @Column({ type: 'varchar', nullable: true })
  state: string | null;

  /** PKCE S256 challenge, when the client used PKCE. */
  @Column({ type: 'varchar', nullable: true })
  codeChallenge: string | null;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  usedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
