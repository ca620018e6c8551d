import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
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
/** How long an idle poller waits before asking for jobs again (on average). */
const IDLE_POLL_MS = 1_000;

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
  private readonly pollers: Promise<void>[] = [];
  /** Aborted on shutdown: wakes idle pollers and ends their loops. */
  private readonly idle = new AbortController();

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
      // A retry of a job whose delivery was already attempted sends nothing (the claim refuses it);
      // deliveries a dead worker left unfinished are recovered by WebhookWorker's sweep.
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
   * Starts `concurrency` independent pollers, so a receiver that hangs holds only one of them. Our
   * own loop over pg-boss's fetch/complete/fail rather than `boss.work()`: a poller that got a job
   * asks again at once (a backlog drains at full speed) and only an idle one sleeps, and stopping
   * waits for exactly our loops, with no timer of the queue left running afterwards.
   */
  work(concurrency: number, handler: (job: DeliveryJob) => Promise<void>): void {
    for (let i = 0; i < concurrency; i++) this.pollers.push(this.poll(handler));
  }

  private async poll(handler: (job: DeliveryJob) => Promise<void>): Promise<void> {
    while (!this.idle.signal.aborted) {
      let jobs: PgBoss.Job<DeliveryJob>[] = [];
      try {
        jobs = (await this.boss.fetch<DeliveryJob>(DELIVERY_QUEUE, { batchSize: 1 })) ?? [];
      } catch (error) {
        this.logger.error({ err: error }, 'Fetching webhook jobs failed');
      }
      if (!jobs.length) {
        // Jittered, so idle pollers of one or many instances do not query in step.
        await sleep(IDLE_POLL_MS * (0.5 + Math.random()), undefined, { signal: this.idle.signal }).catch(
          () => undefined,
        );
        continue;
      }
      for (const job of jobs) await this.run(job, handler);
    }
  }

  private async run(job: PgBoss.Job<DeliveryJob>, handler: (job: DeliveryJob) => Promise<void>): Promise<void> {
    try {
      await handler(job.data);
      await this.boss.complete(DELIVERY_QUEUE, job.id);
    } catch (error) {
      this.logger.error({ err: error, deliveryId: job.data.deliveryId }, 'Webhook job failed');
      await this.boss.fail(DELIVERY_QUEUE, job.id, { message: String(error) }).catch(() => undefined);
    }
  }

  /** Lets in-flight deliveries finish (each ends within 10 s) before the database pool closes. */
  async beforeApplicationShutdown(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    this.idle.abort();
    await Promise.all(this.pollers);
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
