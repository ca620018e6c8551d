import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { JobQueue } from '../../../common/jobs/job-queue';
import { Clock, CLOCK } from '../../../common/time';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { PaymentAttempt } from './payment-attempt.entity';
import { PaymentAttemptsRepository } from './payment-attempts.repository';
import { GatewayOutcome } from './payment-gateway';
import { PaymentsService } from './payments.service';

export const RECONCILE_QUEUE = 'payment-reconcile';
/** An attempt nobody can confirm within an hour is failed with `unconfirmed`. */
export const UNCONFIRMED_AFTER_MS = 60 * 60_000;
/** A refund claimed this long ago and not settled lost its answer (every gateway call ends sooner): asked about. */
export const REFUND_LOOKUP_AFTER_MS = 10 * 60_000;
const BATCH = 100;
/** Refund claims asked about per round: each is a gateway call of up to 30 s. */
const REFUND_BATCH = 20;

export interface ReconcileReport {
  looked: number;
  settled: number;
  /** Refunds whose answer was lost, recorded as made or freed as never made. */
  refunds: number;
}

/**
 * Reconciliation (README, *Taking payments*): every `PAYMENT_RECONCILE_SECONDS` (30) the open attempts whose
 * answer is missing are looked up at their gateway; an hour after the start an attempt still not
 * confirmed is failed (`unconfirmed`). Refunds claimed ten minutes ago and never settled (their
 * answer was lost) are asked about at their gateway the same way. A periodic queue of the durable job queue
 * ({@link JobQueue.every}): one process runs each round however many instances run. Each outcome
 * is applied through {@link PaymentsService.apply}, so a round racing an answer or a callback
 * changes nothing twice.
 */
@Injectable()
export class PaymentReconciler implements OnModuleInit {
  private readonly logger = new Logger('PaymentReconciler');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly jobs: JobQueue,
    private readonly attempts: PaymentAttemptsRepository,
    private readonly payments: PaymentsService,
  ) {}

  onModuleInit(): void {
    // The queue's period is whole seconds: a shorter setting runs once a second.
    const seconds = Math.max(1, Math.round(this.config.payments.reconcileIntervalMs / 1000));
    // A round that throws is logged by the queue and not retried: the next period's round runs anyway.
    this.jobs.every(
      RECONCILE_QUEUE,
      seconds,
      async () => {
        await this.runOnce();
      },
      { expireInSeconds: 600 },
    );
  }

  /** One round over the open attempts (also the seam tests drive). */
  async runOnce(): Promise<ReconcileReport> {
    const now = this.clock.now();
    const open = await this.attempts.findOpenStartedBefore(now, BATCH);
    const report: ReconcileReport = { looked: 0, settled: 0, refunds: 0 };
    for (const attempt of open) {
      try {
        if (await this.reconcile(attempt, now, report)) report.settled++;
      } catch (error) {
        this.logger.warn({ err: error, attempt: attempt.reference }, 'Reconciling a payment attempt failed');
      }
    }
    const refunds = await this.attempts.findRefundsClaimedBefore(
      new Date(now.getTime() - REFUND_LOOKUP_AFTER_MS),
      REFUND_BATCH,
    );
    for (const attempt of refunds) {
      let done: 'refunded' | 'released' | 'waiting' = 'waiting';
      try {
        done = await this.payments.reconcileRefund(attempt);
      } catch (error) {
        this.logger.warn({ err: error, attempt: attempt.reference }, 'Reconciling a refund failed');
      }
      if (done !== 'waiting') {
        report.refunds++;
        this.logger.log({ attempt: attempt.reference, outcome: done }, 'Refund with a lost answer reconciled');
        continue;
      }
      await this.attempts.markRefundAsked(attempt.id, now);
      // Still not known an hour on: said loudly, every round, for an operator to look at the gateway.
      if (attempt.refundStartedAt && now.getTime() - attempt.refundStartedAt.getTime() >= UNCONFIRMED_AFTER_MS)
        this.logger.error(
          { attempt: attempt.reference, claimedAt: attempt.refundStartedAt },
          'A refund whose answer was lost is still not confirmed by its gateway',
        );
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
    const gateway = await this.payments.gatewayOf(attempt);
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
}
