import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { JobQueue } from '../../../common/jobs/job-queue';
import { Clock, CLOCK, formatTimestamp } from '../../../common/time';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { RenewalCharger } from './renewal-charger';
import { SubscriptionLifecycle } from './subscription-lifecycle.service';
import type { Subscription } from './subscription.entity';
import { SubscriptionsRepository } from './subscriptions.repository';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Automatic attempts again 1 and 3 days after end_date. */
const RETRY_AFTER_DAYS = [1, 3];
const MAX_ATTEMPTS = 1 + RETRY_AFTER_DAYS.length;
/** Periods one sweep renews a subscription for at most; the next sweep goes on. */
const CATCH_UP_ROUNDS = 24;
/** Subscriptions looked at per step and sweep; the next sweep goes on with the rest. */
const BATCH = 500;

/** What one sweep did, as `subscriptions:sweep` prints it. */
export interface SweepReport {
  at: string;
  renewal_orders: Array<{ subscription_id: number; order_number: string }>;
  past_due: number[];
  expired: number[];
  cancelled: number[];
  attempts: Array<{ subscription_id: number; order_number: string; attempt: number; outcome: string }>;
  errors: Array<{ subscription_id: number; step: string; message: string }>;
}

/**
 * The subscription sweep (billing README, `subscriptions/`), run every `SUBSCRIPTION_SWEEP_SECONDS` on one process
 * (JobQueue.every) and by `npm run cli -- subscriptions:sweep [--at]`. Each step of each
 * subscription is its own short transaction that re-checks its condition under the row lock, so a
 * sweep that dies half-way and runs again (or two that race) creates no second renewal order and
 * publishes no second event. Gateway calls happen between transactions, never inside one.
 */
@Injectable()
export class SubscriptionSweep implements OnModuleInit {
  private readonly logger = new Logger(SubscriptionSweep.name);

  constructor(
    private readonly subscriptions: SubscriptionsRepository,
    private readonly lifecycle: SubscriptionLifecycle,
    private readonly charger: RenewalCharger,
    private readonly jobs: JobQueue,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.jobs.every('subscriptions-sweep', this.config.subscriptions.sweepSeconds, async () => {
      const report = await this.sweep(this.clock.now());
      const changed =
        report.renewal_orders.length +
        report.past_due.length +
        report.expired.length +
        report.cancelled.length +
        report.attempts.length;
      if (changed || report.errors.length) this.logger.log({ sweep: report }, 'Subscription sweep');
    });
  }

  /** One sweep as of `at`: renewal orders, their automatic attempts, cancel at period end, past_due, expired. */
  async sweep(at: Date): Promise<SweepReport> {
    const { renewalLeadHours, graceDays } = this.config.subscriptions;
    const report: SweepReport = {
      at: formatTimestamp(at),
      renewal_orders: [],
      past_due: [],
      expired: [],
      cancelled: [],
      attempts: [],
      errors: [],
    };
    const each = async (step: string, ids: number[], work: (id: number) => Promise<void>) => {
      for (const id of ids) {
        try {
          await work(id);
        } catch (error) {
          // One subscription's failure does not stop the others; the next sweep tries it again.
          this.logger.error({ err: error, subscriptionId: id, step }, 'Subscription sweep step failed');
          report.errors.push({
            subscription_id: id,
            step,
            message: error instanceof Error ? error.message : String(error),
          });
        }
      }
    };

    const renewBefore = new Date(at.getTime() + renewalLeadHours * HOUR_MS);
    // A sweep that runs more than a period late catches up a period a round: a renewal paid at
    // once moves end_date, and the next round renews the period after it, until none is due.
    for (let round = 0; round < CATCH_UP_ROUNDS; round++) {
      const renewed = report.renewal_orders.length;
      await each('renewal', await this.subscriptions.dueForRenewal(renewBefore, BATCH), async (id) => {
        const order = await this.lifecycle.createRenewal(id, renewBefore, at);
        if (order) report.renewal_orders.push({ subscription_id: id, order_number: order.orderNumber });
      });
      // Charged before anything lapses: a sweep that runs late (the service was down) makes the
      // attempt that was due before it decides past_due or expiry on an unpaid renewal.
      await each('attempt', await this.subscriptions.withOpenRenewal(MAX_ATTEMPTS, BATCH), async (id) => {
        const claimed = await this.lifecycle.claimAttempt(id, (s) => dueAttempts(s, at));
        if (!claimed || !(await this.charger.canCharge(claimed.saved, claimed.order.storeId))) return;
        const outcome = await this.charger.charge(claimed.order, claimed.saved);
        report.attempts.push({
          subscription_id: id,
          order_number: claimed.order.orderNumber,
          attempt: claimed.attempt,
          outcome,
        });
      });
      if (report.renewal_orders.length === renewed) break;
    }
    await each('cancel_at_period_end', await this.subscriptions.endedBy('active', at, BATCH, true), async (id) => {
      if (await this.lifecycle.endAtPeriodEnd(id, at)) report.cancelled.push(id);
    });
    await each('past_due', await this.subscriptions.endedBy('active', at, BATCH, false), async (id) => {
      if (await this.lifecycle.markPastDue(id, at)) report.past_due.push(id);
    });
    await each(
      'expire',
      await this.subscriptions.endedBy('past_due', new Date(at.getTime() - graceDays * DAY_MS), BATCH),
      async (id) => {
        if (await this.lifecycle.expire(id, at, graceDays * DAY_MS)) report.expired.push(id);
      },
    );
    return report;
  }
}

/**
 * How many automatic attempts are due on the open renewal order at `at`: one as soon as it exists,
 * then one more 1 and 3 days after `end_date` while `past_due` (billing README, `subscriptions/`).
 */
export function dueAttempts(subscription: Pick<Subscription, 'status' | 'endDate'>, at: Date): number {
  if (subscription.status !== 'past_due') return 1;
  const overdue = at.getTime() - subscription.endDate.getTime();
  return 1 + RETRY_AFTER_DAYS.filter((days) => overdue >= days * DAY_MS).length;
}
