import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHmac } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppConfig, ConfigError } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { deliverySecret } from '../config/delivery-secret';
import { PreparedStatement } from './prepared-statements';

const NAME = 'delivery';

/** The fingerprint of this process's `DELIVERY_SECRET` (or `$DATA_DIR/delivery.key`): nothing of the secret can be read from it. */
export function deliverySecretFingerprint(config: AppConfig): string {
  return createHmac('sha256', deliverySecret(config)).update('secret-fingerprint').digest('hex');
}

/**
 * Refuses to start a process (server, worker, CLI) whose delivery secret is not the one the
 * database's links, license keys and stored answers were sealed with (README, `DELIVERY_SECRET`):
 * a second host without the variable, or the CLI run on another `DATA_DIR` than the server, would
 * otherwise sign links the server refuses and seal keys it cannot open. The server records its
 * fingerprint on a database that has none; the worker and the CLI only compare (`AppConfig.delivery.fingerprint`);
 * `npm run cli -- delivery-secret:adopt` records another.
 */
@Injectable()
export class DeliverySecretCheck implements OnModuleInit {
  /** The database's fingerprint, recorded first when there is none: one statement, whoever races it. */
  private readonly recordOrRead: PreparedStatement;
  private readonly read: PreparedStatement;
  private readonly replace: PreparedStatement;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    // DO UPDATE (of nothing) rather than DO NOTHING: a row another process committed meanwhile is
    // then returned, where DO NOTHING returns none and a read in the same statement misses it.
    this.recordOrRead = new PreparedStatement(
      dataSource,
      `INSERT INTO secret_fingerprints (name, fingerprint) VALUES ($1, $2)
       ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING fingerprint`,
    );
    this.read = new PreparedStatement(dataSource, `SELECT fingerprint FROM secret_fingerprints WHERE name = $1`);
    this.replace = new PreparedStatement(
      dataSource,
      `INSERT INTO secret_fingerprints (name, fingerprint) VALUES ($1, $2)
       ON CONFLICT (name) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, recorded_at = now()`,
    );
  }

  async onModuleInit(): Promise<void> {
    const mode = this.config.delivery.fingerprint ?? 'record';
    if (mode === 'adopt') return;
    const mine = deliverySecretFingerprint(this.config);
    const [recorded] =
      mode === 'record'
        ? await this.recordOrRead.rows<{ fingerprint: string }>([NAME, mine])
        : await this.read.rows<{ fingerprint: string }>([NAME]);
    if (recorded === undefined || recorded.fingerprint === mine) return;
    const source = this.config.delivery.secret
      ? 'DELIVERY_SECRET'
      : `${this.config.delivery.secretFile} (DELIVERY_SECRET unset)`;
    throw new ConfigError(
      `The delivery secret of this process, from ${source}, is not the one this database's download links, ` +
        `license keys and idempotent answers were sealed with: start it with the same DELIVERY_SECRET or DATA_DIR ` +
        `as the server. To change the secret on purpose (keys sealed before can then no longer be shown), stop ` +
        `every process and run \`npm run cli -- delivery-secret:adopt\` with the new one.`,
    );
  }

  /** Records this process's secret as the database's (`delivery-secret:adopt`). */
  async adopt(): Promise<void> {
    await this.replace.rows([NAME, deliverySecretFingerprint(this.config)]);
  }
}
