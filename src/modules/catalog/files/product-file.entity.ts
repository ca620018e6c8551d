import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A file of a product: an upload kept by a storage driver, or an external link. */
@Entity('product_files')
@Index(['productId', 'id'])
export class ProductFile {
  @PrimaryGeneratedColumn()
  id: number;

  @Index()
  @Column()
  storeId: number;

  @Column()
  productId: number;

  @Column()
  name: string;

  @Column({ type: 'varchar', length: 8 })
  kind: 'upload' | 'link';

  /** Key in the storage driver (uploads); unguessable, it is part of the `{cdn_url}` link. */
  @Index({ unique: true, where: 'storage_key IS NOT NULL' })
  @Column({ type: 'varchar', nullable: true })
  storageKey: string | null;

  /** The seller's own URL (links). */
  @Column({ type: 'varchar', nullable: true })
  externalUrl: string | null;

  @Column({ type: 'bigint', default: 0, transformer: { to: (v: number) => v, from: (v: string) => Number(v) } })
  sizeBytes: number;

  /** File extension, or `link`. */
  @Column()
  format: string;

  @Column({ type: 'varchar', nullable: true })
  contentType: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
