import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Dashboard sessions, in the schema `connect-pg-simple` expects, so every instance shares them.
 * Mapped as an entity only so the migration that creates the table is generated like the others.
 */
@Entity('web_sessions')
export class WebSession {
  @PrimaryColumn({ type: 'varchar' })
  sid: string;

  @Column({ type: 'json' })
  sess: unknown;

  @Index()
  @Column({ type: 'timestamp', precision: 6 })
  expire: Date;
}
