import { CreateDateColumn, UpdateDateColumn } from 'typeorm';

/** `created_at` / `updated_at` as `timestamptz`, set by the database. */
export abstract class Timestamped {
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
