import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One counted download: when, from which network (`/24` or `/48`, never the address) and with what. */
@Entity('download_events')
@Index(['orderId', 'fileId', 'at'])
export class DownloadEvent {
  @PrimaryGeneratedColumn()
  id: number;

  @Column()
  storeId: number;

  @Column()
  orderId: number;

  @Column()
  fileId: number;

  @Column({ type: 'timestamptz' })
  at: Date;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ipPrefix: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  userAgent: string | null;
}
