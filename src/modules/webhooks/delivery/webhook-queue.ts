import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import PgBoss from 'pg-boss';
import type { EntityManager } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { DatabaseConnection } from '../../../database/database-connection';

export const DELIVERY_QUEUE = 'webhook-delivery';

export interface DeliveryJob {
  deliveryId: number;
}

/** How long a claimed job may stay active before pg-boss hands it out again (well over 10 s). */
const JOB_EXPIRE_SECONDS = 60;
const SHUTDOWN_GRACE_MS = 15_000;

/**
 * The delivery queue: pg-boss on the service's own PostgreSQL. Jobs are inserted with the order's
 * transaction (pg-boss `send` with a `db` that runs on the transaction's connection), so the job
 * exists exactly when the order change does.
 */
@Injectable()
export class WebhookQueue implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookQueue.name);
  private readonly boss: PgBoss;
  private started = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    connection: DatabaseConnection,
  ) {
    this.boss = new PgBoss({
      connectionString: connection.url,
      application_name: 'commerce-webhooks',
      max: 4,
      migrate: true,
      // Maintenance (expiring jobs of a crashed worker) runs where jobs are worked.
      supervise: config.webhooks.runWorker,
      schedule: false,
    });
    this.boss.on('error', (error) => this.logger.error({ err: error }, 'pg-boss error'));
  }

  async onModuleInit(): Promise<void> {
    await this.boss.start();
    this.started = true;
    // Idempotent and safe when several instances start at once (ON CONFLICT DO NOTHING).
    await this.boss.createQueue(DELIVERY_QUEUE, {
      name: DELIVERY_QUEUE,
      // Retries only re-run a job whose worker died before claiming it; a claimed delivery is never re-sent.
      retryLimit: 2,
      retryDelay: 2,
      expireInSeconds: JOB_EXPIRE_SECONDS,
    });
  }

  /** Enqueues a delivery, inside `manager`'s transaction when given. */
  async enqueue(deliveryId: number, manager?: EntityManager): Promise<void> {
    const db = manager ? { executeSql: (text: string, values: unknown[]) => runOn(manager, text, values) } : undefined;
    const jobId = await this.boss.send(DELIVERY_QUEUE, { deliveryId } satisfies DeliveryJob, db ? { db } : {});
    if (!jobId) throw new Error(`Webhook delivery ${deliveryId} could not be queued.`);
  }

  /**
   * Starts `concurrency` independent pollers, so a hanging receiver holds only one of them. A
   * poller that found a job looks again at once: pg-boss otherwise waits out the polling interval
   * after every batch, which capped deliveries at `concurrency` per second.
   */
  async work(concurrency: number, handler: (job: DeliveryJob) => Promise<void>): Promise<void> {
    for (let i = 0; i < concurrency; i++) {
      let workerId = '';
      workerId = await this.boss.work<DeliveryJob>(DELIVERY_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([job]) => {
        try {
          await handler(job.data);
        } finally {
          this.boss.notifyWorker(workerId);
        }
      });
    }
  }

  /** Lets in-flight deliveries finish (each ends within 10 s) before the database pool closes. */
  async beforeApplicationShutdown(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: true, wait: true, timeout: SHUTDOWN_GRACE_MS });
  }
}

/** pg-boss's `Db` contract on a TypeORM transaction: `{ rows }` whatever the command. */
async function runOn(manager: EntityManager, text: string, values: unknown[]): Promise<{ rows: unknown[] }> {
  const runner = manager.queryRunner;
  if (!runner) throw new Error('The order event carries no transaction.');
  const result = await runner.query(text, values as unknown[], true);
  return { rows: result.records ?? [] };
}
