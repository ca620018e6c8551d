import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { WebhookDeliverer } from './webhook-deliverer';
import { WebhookQueue } from './webhook-queue';

/** Deliveries in flight at once per process: one receiver that hangs for 10 s holds only one. */
export const WORKER_CONCURRENCY = 8;

/** Works the delivery queue in this process when `WEBHOOK_WORKER` is on (or in `npm run start:worker`). */
@Injectable()
export class WebhookWorker implements OnApplicationBootstrap {
  private readonly logger = new Logger(WebhookWorker.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queue: WebhookQueue,
    private readonly deliverer: WebhookDeliverer,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.webhooks.runWorker) return;
    this.queue.work(WORKER_CONCURRENCY, (job) => this.deliverer.deliver(job.deliveryId));
    this.logger.log(`Webhook worker started (${WORKER_CONCURRENCY} concurrent deliveries)`);
  }
}
