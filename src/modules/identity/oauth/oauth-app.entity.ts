import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Timestamped } from '../../../common/entities/timestamps';

/** An OAuth client registered by a seller in the dashboard (spec §4.2). */
@Entity('oauth_apps')
export class OAuthApp extends Timestamped {
  @PrimaryGeneratedColumn()
  id: number;

  @Index()
  @Column()
  storeId: number;

  @Column()
  sellerId: number;

  @Column()
  name: string;

  /** Public identifier of the client. */
  @Index({ unique: true })
  @Column()
  clientId: string;

  /** argon2id (decisions §3); the secret itself is shown once. */
  @Column()
  clientSecretHash: string;

  /** Exact strings a redirect_uri must equal (decisions §2.3.1). */
  @Column({ type: 'text', array: true })
  redirectUris: string[];

  @Column({ default: true })
  active: boolean;
}
