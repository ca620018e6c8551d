import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHmac } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppConfig, ConfigError } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { deliverySecret } from '../config/delivery-secret';
import { PreparedStatement } from './prepared-statements';
import { SecretFingerprint } from './secret-fingerprint.entity';

const NAME = 'delivery';

/** The fingerprint of this process's `DELIVERY_SECRET` (or `$DATA_DIR/delivery.key`): nothing of the secret can be read from it. */
export function deliverySecretFingerprint(config: AppConfig): string {
  return createHmac('sha256', deliverySecret(config)).update('secret-fingerprint').digest('hex');
}

/**
 * Refuses to start a process (server, worker, CLI) whose delivery secret is not the one the
 * database's links, license keys and stored answers were sealed with (README, `DELIVERY_SECRET`):
 * a second host without the variable, or the CLI run on another `DATA_DIR` than the server, would
 * otherwise sign links the server refuses and seal keys it cannot open. The first process to start
 * on a database records its fingerprint; `npm run cli -- delivery-secret:adopt` records another.
 */
@Injectable()
export class DeliverySecretCheck implements OnModuleInit {
  /** Records the fingerprint on a database that has none, and answers the one it has (one round trip). */
  private readonly recordOrRead: PreparedStatement;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.recordOrRead = new PreparedStatement(
      dataSource,
      `WITH recorded AS (
         INSERT INTO secret_fingerprints (name, fingerprint) VALUES ($1, $2)
         ON CONFLICT (name) DO NOTHING RETURNING fingerprint)
       SELECT fingerprint FROM recorded
       UNION ALL SELECT fingerprint FROM secret_fingerprints WHERE name = $1`,
    );
  }

  async onModuleInit(): Promise<void> {
    if (this.config.delivery.adoptSecret) return;
    const mine = deliverySecretFingerprint(this.config);
    const rows = await this.recordOrRead.rows<{ fingerprint: string }>([NAME, mine]);
    if (rows[0]?.fingerprint === mine) return;
    const source = this.config.delivery.secret
      ? 'DELIVERY_SECRET'
      : `${this.config.delivery.secretFile} (DELIVERY_SECRET unset)`;
    throw new ConfigError(
      `The delivery secret of this process, from ${source}, is not the one this database's download links, ` +
        `license keys and idempotent answers were sealed with: start it with the same DELIVERY_SECRET or DATA_DIR ` +
        `as the server. To change the secret on purpose (keys sealed before can then no longer be shown), run ` +
        `\`npm run cli -- delivery-secret:adopt\` with the new one.`,
    );
  }

  /** Records this process's secret as the database's (`delivery-secret:adopt`). */
  async adopt(): Promise<void> {
    await this.dataSource
      .getRepository(SecretFingerprint)
      .upsert({ name: NAME, fingerprint: deliverySecretFingerprint(this.config), recordedAt: new Date() }, ['name']);
  }
}
