import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Client } from 'pg';
import PgBoss from 'pg-boss';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, type EntitySubscriberInterface, type QueryRunner } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { DatabaseConnection } from '../../database/database-connection';
import { preparedStatementsOn } from '../../database/prepared-statements';
import { JobDatabase, nameOf } from './job-database';
import { QueueWorker } from './queue-worker';

export type JobHandler<T> = (data: T, job: { id: string; retryCount: number }) => Promise<void>;

export interface QueueOptions {
  /** Attempts after the first; a job whose handler keeps throwing is failed (and logged) after these. */
  retryLimit?: number;
  /** Seconds before the first retry; doubled on each further one when `retryBackoff`. */
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
  /** How long a job may run before it counts as crashed and is handed out again. */
  expireInSeconds?: number;
  /** Jobs of this queue worked at once by one process. */
  concurrency?: number;
  /**
   * A job sent in a transaction wakes a worker when it commits (one more statement in that
   * transaction) instead of waiting for the next poll: for queues whose delay is part of the
   * contract (webhook deliveries).
   */
  wakeOnCommit?: boolean;
}

export interface SendOptions {
  /** Insert the job in this transaction: it exists exactly when the change it belongs to commits. */
  manager?: EntityManager;
  /** At most one job with this key waits in the queue (a job per message, a job per event). */
  singletonKey?: string;
  startAfter?: Date | number;
}

interface QueueDefinition {
  /** The job's data is what `send` was given for this queue's `T`: pg-boss stores it as JSON. */
  handler: JobHandler<object>;
  options: QueueOptions;
  /** Set for periodic queues: the tick every process offers, of which one per window is worked. */
  everySeconds?: number;
}

const SHUTDOWN_GRACE_MS = 15_000;
/** How long a job may run, unless its queue says otherwise. */
const DEFAULT_EXPIRE_SECONDS = 300;
/**
 * How often an idle worker looks for jobs by itself. A job sent in a transaction wakes a worker
 * when that transaction commits (WAKE_CHANNEL), so this only bounds the delay of retries, delayed
 * jobs and a wake-up that was lost.
 */
const POLL_SECONDS = 2;
/** PostgreSQL notifies listeners on commit: the payload is the queue that got a job. */
const WAKE_CHANNEL = 'commerce_jobs';

/** A job as pg-boss's `insert` takes it (several in one statement). */
interface NewJob {
  name: string;
  data: object;
  singletonKey?: string;
  /** An ISO time (with `Z`) or a delay in seconds, as text. */
  startAfter?: string;
}

/** The jobs a transaction sent, inserted together just before it commits. */
interface TransactionJobs {
  jobs: NewJob[];
  /** Queues whose worker the commit wakes. */
  wake: Set<string>;
}

/**
 * Durable background work on pg-boss in the service's own PostgreSQL: what must happen after a
 * commit (events' after-commit handlers, emails, payment reconciliation, the subscription sweep).
 *
 * A queue is defined once (in a provider's `onModuleInit`) with its handler. Jobs are sent inside
 * the transaction of the change that calls for them, so a crash never loses one; a handler that
 * throws is retried and, when its retries run out, logged as failed. Each handler must be
 * idempotent: a process that dies mid-job has it run again elsewhere.
 *
 * Jobs are worked by processes with `WEBHOOK_WORKER` on (every instance by default); pg-boss hands
 * each job to one of them, and a periodic queue runs once per period however many instances run.
 */
@Injectable()
export class JobQueue implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(JobQueue.name);
  private readonly boss: PgBoss;
  private readonly db: JobDatabase;
  private readonly queues = new Map<string, QueueDefinition>();
  private readonly timers: NodeJS.Timeout[] = [];
  /** This process's worker of each queue. */
  private readonly workers = new Map<string, QueueWorker>();
  private listener?: Client;
  private started = false;
  /** Jobs sent inside each open transaction, not inserted yet. */
  private readonly inTransaction = new WeakMap<QueryRunner, TransactionJobs>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly connection: DatabaseConnection,
    @InjectDataSource() dataSource: DataSource,
  ) {
    this.db = new JobDatabase(
      { connectionString: connection.url, application_name: 'commerce-jobs', max: 5 },
      preparedStatementsOn(dataSource),
    );
    this.db.on('error', (error) => this.logger.error({ err: error }, 'Job database connection error'));
    this.db.on('statement-error', (error: { code?: string; message?: string }) =>
      this.logger.warn({ code: error.code, err: error.message }, 'A job queue statement failed'),
    );
    this.boss = new PgBoss({
      db: this.db,
      migrate: true,
      supervise: config.webhooks.runWorker,
      schedule: false,
    });
    this.boss.on('error', (error) => this.logger.error({ err: error }, 'pg-boss error'));
    // The jobs of a transaction go in with its commit: one statement for all of them (and one to
    // wake the workers), instead of one or two per job.
    const subscriber: EntitySubscriberInterface = {
      beforeTransactionCommit: ({ queryRunner }) => this.insertSent(queryRunner),
      afterTransactionRollback: ({ queryRunner }) => void this.inTransaction.delete(queryRunner),
    };
    dataSource.subscribers.push(subscriber);
  }

  /** Declares a queue and the handler that works its jobs. Call from `onModuleInit`. */
  define<T extends object>(name: string, handler: JobHandler<T>, options: QueueOptions = {}): void {
    if (this.started) throw new Error(`Queue ${name} defined after start-up; define queues in onModuleInit.`);
    if (this.queues.has(name)) throw new Error(`Queue ${name} is defined twice.`);
    this.queues.set(name, { handler: (data, job) => handler(data as T, job), options });
  }

  /**
   * A job that runs about every `seconds` on one process of however many run: each process offers a
   * tick per period and the singleton key keeps one per window.
   */
  every(name: string, seconds: number, handler: () => Promise<void>, options: QueueOptions = {}): void {
    this.define(name, () => handler(), { retryLimit: 0, ...options });
    this.queues.get(name)!.everySeconds = seconds;
  }

  /**
   * Sends a job. With a `manager` in a transaction, the job is inserted with the transaction's
   * other jobs just before it commits (every job of a paid order, the receipt's and the webhooks',
   * in one statement): it exists exactly when the change does, and a rollback drops it.
   */
  async send<T extends object>(name: string, data: T, options: SendOptions = {}): Promise<void> {
    if (!this.queues.has(name)) throw new Error(`Queue ${name} is not defined.`);
    const { manager, ...job } = options;
    const runner = manager?.queryRunner;
    if (runner?.isTransactionActive) {
      let sent = this.inTransaction.get(runner);
      if (!sent) this.inTransaction.set(runner, (sent = { jobs: [], wake: new Set() }));
      sent.jobs.push({ name, data, singletonKey: job.singletonKey, startAfter: startAfterText(job.startAfter) });
      if (this.queues.get(name)!.options.wakeOnCommit && !job.startAfter) sent.wake.add(name);
      return;
    }
    const db = manager ? { executeSql: (text: string, values: unknown[]) => runOn(manager, text, values) } : undefined;
    await this.boss.send(name, data, { ...job, ...(db ? { db } : {}) });
  }

  /** Inserts the jobs `runner`'s transaction sent, before its COMMIT (a TypeORM transaction event). */
  private async insertSent(runner: QueryRunner): Promise<void> {
    const sent = this.inTransaction.get(runner);
    if (!sent) return;
    this.inTransaction.delete(runner);
    await this.boss.insert(sent.jobs, { db: { executeSql: (text, values) => runOn(runner.manager, text, values) } });
    // Wakes a worker of each queue (of whichever process listens) when the transaction commits.
    if (sent.wake.size)
      await runner.query('SELECT pg_notify($1, q) FROM unnest($2::text[]) q', [WAKE_CHANNEL, [...sent.wake]]);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.db.open();
    await this.boss.start();
    this.started = true;
    // A process that works no queue (an API-only instance, a CLI command) creates a missing queue
    // but leaves the policy the workers' start set.
    await this.applyQueuePolicies(this.config.webhooks.runWorker);
    if (!this.config.webhooks.runWorker) return;
    for (const [name, definition] of this.queues) this.startWorkers(name, definition);
    await this.listen().catch((error: unknown) =>
      this.logger.warn({ err: error }, 'Listening for new jobs failed; workers poll'),
    );
  }

  /**
   * Each queue with the retry policy this start was configured with (`MAIL_RETRY_DELAY_SECONDS`, …):
   * created if new, and with `update`, updated if an earlier start made it with another (pg-boss's
   * `createQueue` leaves an existing queue as it is). Jobs take their queue's policy when they are
   * sent. Idempotent, and safe when several instances start at once.
   */
  async applyQueuePolicies(update = true): Promise<void> {
    for (const [name, { options }] of this.queues) {
      const policy = {
        retryLimit: options.retryLimit ?? 5,
        retryDelay: options.retryDelaySeconds ?? 5,
        retryBackoff: options.retryBackoff ?? true,
        expireInSeconds: options.expireInSeconds ?? DEFAULT_EXPIRE_SECONDS,
      };
      await this.boss.createQueue(name, { name, ...policy });
      if (update) await this.boss.updateQueue(name, { name, ...policy });
    }
  }

  /** A connection of its own that hears commits of jobs and wakes one worker of their queue. */
  private async listen(): Promise<void> {
    const client = new Client({ connectionString: this.connection.url, application_name: 'commerce-jobs-listen' });
    client.on('error', (error) => this.logger.warn({ err: error }, 'Job wake-up connection lost; workers poll'));
    client.on('notification', ({ payload }) => {
      // Commits in one turn wake the queue's worker once: it fetches for all its free slots.
      if (payload) this.workers.get(payload)?.wake();
    });
    await client.connect();
    await client.query(`LISTEN ${WAKE_CHANNEL}`);
    this.listener = client;
  }

  private startWorkers(name: string, { handler, options, everySeconds }: QueueDefinition): void {
    const worker = new QueueWorker(
      this.boss,
      name,
      (job) => handler(job.data, { id: job.id, retryCount: (job as { retryCount?: number }).retryCount ?? 0 }),
      {
        concurrency: options.concurrency ?? 1,
        pollSeconds: POLL_SECONDS,
        expireInSeconds: options.expireInSeconds ?? DEFAULT_EXPIRE_SECONDS,
      },
      this.logger,
    );
    this.workers.set(name, worker);
    worker.start();
    if (everySeconds) {
      const tick = () =>
        this.boss
          .send(name, {}, { singletonKey: 'tick', singletonSeconds: everySeconds })
          .catch((error: unknown) =>
            this.logger.error({ err: error, queue: name }, 'Scheduling a periodic job failed'),
          );
      void tick();
      const timer = setInterval(tick, everySeconds * 1000);
      timer.unref();
      this.timers.push(timer);
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    await this.listener?.end().catch(() => undefined);
    this.listener = undefined;
    if (!this.started) return;
    this.started = false;
    await Promise.all([...this.workers.values()].map((worker) => worker.stop(SHUTDOWN_GRACE_MS)));
    await this.boss.stop({ graceful: true, wait: true, timeout: SHUTDOWN_GRACE_MS });
    await this.db.close();
  }
}

/** A job's `startAfter` as pg-boss's `insert` reads it: an ISO time, or seconds from now. */
function startAfterText(startAfter: Date | number | undefined): string | undefined {
  if (startAfter === undefined) return undefined;
  return startAfter instanceof Date ? startAfter.toISOString() : String(startAfter);
}

/** pg-boss's `Db` contract on a TypeORM transaction: `{ rows }` whatever the command. */
export async function runOn(manager: EntityManager, text: string, values: unknown[]): Promise<{ rows: unknown[] }> {
  const runner = manager.queryRunner;
  if (!runner) throw new Error('A job sent with a manager needs its transaction.');
  // Prepared by name, as on pg-boss's own pool (job-database.ts); TypeORM hands the config to pg.
  const query = preparedStatementsOn(manager.connection) && values.length ? { name: nameOf(text), text } : text;
  const result = await runner.query(query as string, values, true);
  return { rows: result.records ?? [] };
}
