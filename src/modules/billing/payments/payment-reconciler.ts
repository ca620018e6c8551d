import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import PgBoss from 'pg-boss';
import { Clock, CLOCK } from '../../../common/time';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { DatabaseConnection } from '../../../database/database-connection';
import { PaymentAttempt } from './payment-attempt.entity';
import { PaymentAttemptsRepository } from './payment-attempts.repository';
import { GatewayOutcome } from './payment-gateway';
import { PaymentsService } from './payments.service';

export const RECONCILE_QUEUE = 'payment-reconcile';
/** decisions §10: an attempt nobody can confirm within an hour is failed with `unconfirmed`. */
export const UNCONFIRMED_AFTER_MS = 60 * 60_000;
const BATCH = 100;

export interface ReconcileReport {
  looked: number;
  settled: number;
}

/**
 * Reconciliation (decisions §10): every `PAYMENT_RECONCILE_SECONDS` (30) the open attempts whose
 * answer is missing are looked up at their gateway; an hour after the start an attempt still not
 * confirmed is failed (`unconfirmed`). One process runs each round however many instances run:
 * every instance offers a job per interval through pg-boss's throttled send (one job per time
 * slot, whoever sends it), and the instance that fetches the job runs it. Each outcome is applied
 * through {@link PaymentsService.apply}, so a round racing an answer or a callback changes nothing twice.
 */
@Injectable()
export class PaymentReconciler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('PaymentReconciler');
  private readonly boss: PgBoss;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private started = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    connection: DatabaseConnection,
    private readonly attempts: PaymentAttemptsRepository,
    private readonly payments: PaymentsService,
  ) {
    this.boss = new PgBoss({
      connectionString: connection.url,
      application_name: 'commerce-payments',
      max: 2,
      migrate: true,
      supervise: true,
      schedule: false,
    });
    this.boss.on('error', (error) => this.logger.error({ err: error }, 'pg-boss error'));
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.boss.start();
    this.started = true;
    await this.boss.createQueue(RECONCILE_QUEUE, { name: RECONCILE_QUEUE, retryLimit: 0, expireInSeconds: 600 });
    const interval = this.config.payments.reconcileIntervalMs;
    this.timer = setInterval(() => this.tick(), interval);
    this.timer.unref();
    this.tick();
  }

  /** Offers this slot's job (a no-op when another instance already did) and runs whatever job this instance fetches. */
  private tick(): void {
    if (this.running || !this.started) return;
    this.running = (async () => {
      try {
        const seconds = Math.max(1, Math.round(this.config.payments.reconcileIntervalMs / 1000));
        await this.boss.sendThrottled(RECONCILE_QUEUE, {}, {}, seconds);
        const jobs = (await this.boss.fetch(RECONCILE_QUEUE, { batchSize: 1 })) ?? [];
        for (const job of jobs) {
          try {
            await this.runOnce();
            await this.boss.complete(RECONCILE_QUEUE, job.id);
          } catch (error) {
            await this.boss.fail(RECONCILE_QUEUE, job.id, { message: String(error) }).catch(() => undefined);
            throw error;
          }
        }
      } catch (error) {
        if (this.started) this.logger.error({ err: error }, 'Payment reconciliation failed');
      } finally {
        this.running = null;
      }
    })();
  }

  /** One round over the open attempts (also the seam tests drive). */
  async runOnce(): Promise<ReconcileReport> {
    const now = this.clock.now();
    const open = await this.attempts.findOpenStartedBefore(now, BATCH);
    const report: ReconcileReport = { looked: 0, settled: 0 };
    for (const attempt of open) {
      try {
        if (await this.reconcile(attempt, now, report)) report.settled++;
      } catch (error) {
        this.logger.warn({ err: error, attempt: attempt.reference }, 'Reconciling a payment attempt failed');
      }
    }
    return report;
  }

  private async reconcile(attempt: PaymentAttempt, now: Date, report: ReconcileReport): Promise<boolean> {
    const age = now.getTime() - attempt.createdAt.getTime();
    if (age >= UNCONFIRMED_AFTER_MS) {
      const result = await this.payments.apply(attempt, {
        status: 'failed',
        code: 'unconfirmed',
        message: 'The payment could not be confirmed within an hour.',
      });
      return (
        result.attempt?.id === attempt.id &&
        result.attempt.status === 'failed' &&
        result.attempt.errorCode === 'unconfirmed'
      );
    }
    const gateway = this.payments.gatewayOf(attempt);
    // A processing attempt younger than its gateway's limit may still get its answer in the process that called.
    if (!gateway || (attempt.status === 'processing' && age < gateway.lookupAfterMs)) return false;
    report.looked++;
    let outcome: GatewayOutcome;
    try {
      outcome = await gateway.lookup(this.payments.referenceOf(attempt));
    } catch (error) {
      this.logger.warn({ err: error, attempt: attempt.reference }, 'Payment lookup failed');
      return false;
    }
    if (outcome.status === 'processing') return false;
    const result = await this.payments.apply(attempt, outcome);
    return outcome.status !== 'unknown' && result.attempt?.status === outcome.status;
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    clearInterval(this.timer);
    await this.running;
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  }
}
