import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** Downloads of one file of one order, counted against `DOWNLOAD_LIMIT`. */
@Entity('download_counters')
@Index(['orderId', 'fileId'], { unique: true })
export class DownloadCounter {
  @PrimaryGeneratedColumn()
  id: number;

  @Column()
  storeId: number;

  @Column()
  orderId: number;

  @Column()
  fileId: number;

  @Column({ type: 'int', default: 0 })
  count: number;

  @Column({ type: 'timestamptz', nullable: true })
  lastDownloadedAt: Date | null;
}
