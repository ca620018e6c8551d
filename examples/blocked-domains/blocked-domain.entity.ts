import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * An email domain a store takes no orders from: the plugin's own table, created by its own
 * migration (`migrations/`), which runs with core's.
 */
@Entity('blocked_email_domains')
@Index(['storeId', 'domain'], { unique: true })
export class BlockedEmailDomain {
  @PrimaryGeneratedColumn()
  id: number;

  /** The store's id, as the plugin API's `Principal.storeId` gives it. */
  @Column()
  storeId: number;

  /** Lower case, without a leading `@` (`example.com`). */
  @Column({ length: 253 })
  domain: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
