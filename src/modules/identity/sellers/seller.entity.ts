import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Timestamped } from '../../../common/entities/timestamps';

@Entity('sellers')
export class Seller extends Timestamped {
  @PrimaryGeneratedColumn()
  id: number;

  @Column()
  name: string;

  /** Stored lower-cased; unique. */
  @Index({ unique: true })
  @Column()
  email: string;

  /** argon2id (the security schemes of the OpenAPI description). */
  @Column()
  passwordHash: string;

  /**
   * May review products of every store in the dashboard (`{web_url}/review`). Granted and revoked
   * only from the command line (`operator:grant`, `operator:revoke`; identity's README).
   */
  @Column({ default: false })
  operator: boolean;
}
