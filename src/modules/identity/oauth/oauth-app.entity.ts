import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Timestamped } from '../../../common/entities/timestamps';

/** An OAuth client registered by a seller in the dashboard (OpenAPI: `POST /v1/oauth/token`). */
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

  /** argon2id (the security schemes of the OpenAPI description); the secret itself is shown once. */
  @Column()
  clientSecretHash: string;

  /** Exact strings a redirect_uri must equal (README, *Operating it*). */
  @Column({ type: 'text', array: true })
  redirectUris: string[];

  @Column({ default: true })
  active: boolean;
}
