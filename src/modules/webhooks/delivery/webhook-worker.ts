import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleInit,
} from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { WebhookDeliveriesRepository } from '../webhook-deliveries.repository';
import { WebhookDeliverer } from './webhook-deliverer';
import { WebhookQueue, WORKER_CONCURRENCY } from './webhook-queue';

export { WORKER_CONCURRENCY };

/** How often a worker looks for deliveries a dead worker left unfinished (and once at start). */
export const RECOVERY_INTERVAL_MS = 10_000;
/** A pending delivery older than this lost its job to a worker that died between fetch and claim. */
export const STALE_PENDING_SECONDS = 10;
const RECOVERY_BATCH = 100;
const RECOVERY_CONCURRENCY = 4;

/**
 * Works the delivery queue in this process when `WEBHOOK_WORKER` is on (or in `npm run start:worker`),
 * and recovers what a worker that died left behind: its claimed but unrecorded deliveries (the
 * claim outlives its lease) and the pending ones whose job it had fetched. pg-boss would hand
 * those jobs out again only once they expire (60 s, checked every few minutes); the sweep sends
 * them at start-up and within {@link RECOVERY_INTERVAL_MS} on every other live instance. The claim
 * decides who sends, so a sweep racing the queue sends nothing twice.
 */
@Injectable()
export class WebhookWorker implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookWorker.name);
  private readonly stopping = new AbortController();
  private recovery?: Promise<void>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queue: WebhookQueue,
    private readonly deliverer: WebhookDeliverer,
    private readonly deliveries: WebhookDeliveriesRepository,
  ) {}

  onModuleInit(): void {
    // Worked by the shared job queue where WEBHOOK_WORKER is on.
    this.queue.define((job) => this.deliverer.deliver(job.deliveryId));
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.webhooks.runWorker) return;
    this.recovery = this.recoverLoop();
    this.logger.log(`Webhook worker started (${WORKER_CONCURRENCY} concurrent deliveries)`);
  }

  private async recoverLoop(): Promise<void> {
    while (!this.stopping.signal.aborted) {
      try {
        await this.recoverOnce();
      } catch (error) {
        this.logger.error({ err: error }, 'Recovering unfinished webhook deliveries failed');
      }
      await sleep(RECOVERY_INTERVAL_MS, undefined, { signal: this.stopping.signal }).catch(() => undefined);
    }
  }

  /** Delivers every unfinished delivery of a dead worker found now; returns how many were found. */
  async recoverOnce(): Promise<number> {
    let found = 0;
    // Bounded, so rows that keep failing (the database refusing them) cannot hold the loop.
    for (let batch = 0; batch < 10; batch++) {
      const ids = await this.deliveries.unfinished(STALE_PENDING_SECONDS, RECOVERY_BATCH);
      found += ids.length;
      for (let i = 0; i < ids.length && !this.stopping.signal.aborted; i += RECOVERY_CONCURRENCY) {
        await Promise.all(
          ids
            .slice(i, i + RECOVERY_CONCURRENCY)
            .map((id) =>
              this.deliverer
                .deliver(id)
                .catch((error: unknown) =>
                  this.logger.error({ err: error, deliveryId: id }, 'Webhook recovery failed'),
                ),
            ),
        );
      }
      if (ids.length < RECOVERY_BATCH || this.stopping.signal.aborted) break;
    }
    return found;
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    await this.recovery;
  }
}
