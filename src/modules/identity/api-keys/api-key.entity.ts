import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { Scope } from '../scopes';

/** An API key (the security schemes of the OpenAPI description): only its SHA-256 hash and a display prefix are stored. */
@Entity('api_keys')
export class ApiKey {
  @PrimaryGeneratedColumn()
  id: number;

  @Index()
  @Column()
  storeId: number;

  @Column()
  sellerId: number;

  @Column()
  name: string;

  /** First characters of the token, shown in the dashboard to tell keys apart. */
  @Column()
  prefix: string;

  @Index({ unique: true })
  @Column({ type: 'char', length: 64 })
  tokenHash: string;

  @Column({ type: 'text', array: true })
  scopes: Scope[];

  @Column({ type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
