import { Inject, Injectable, Logger } from '@nestjs/common';
import DataLoader from 'dataloader';
import { Clock, CLOCK } from '../../../common/time';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { ClaimedDelivery, WebhookDeliveriesRepository } from '../webhook-deliveries.repository';
import { postWebhook } from './http-poster';
import { signatureHeaders } from './webhook-signer';
import { WorkerLease } from './worker-lease';

const USER_AGENT = 'CommerceAPI-Webhooks/1.0';

/**
 * Makes the attempt of a delivery and records it on the delivery (so on every webhook of its
 * group). An attempt cut short by the death of its process (nothing recorded) is made again by a
 * live worker with the same `webhook-id` (README, *Choices where the contract is silent*): every committed event reaches every
 * subscribed URL at least once.
 */
@Injectable()
export class WebhookDeliverer {
  private readonly logger = new Logger(WebhookDeliverer.name);
  /**
   * The claims of the deliveries started in one turn of the event loop (the jobs of one fetch)
   * made by one statement; each delivery is then sent and recorded on its own.
   */
  private readonly claims = new DataLoader<number, ClaimedDelivery | null>(
    async (ids) => {
      const claimed = await this.deliveries.claim(ids, await this.lease.token());
      // An id asked for twice in one turn (its job and the recovery sweep) is claimed once.
      return ids.map((id) => {
        const claim = claimed.get(id) ?? null;
        claimed.delete(id);
        return claim;
      });
    },
    { cache: false },
  );

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly lease: WorkerLease,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  private get guard(): boolean {
    return this.config.isProduction && !this.config.webhooks.allowPrivate;
  }

  async deliver(deliveryId: number): Promise<void> {
    const claimed = await this.claims.load(deliveryId);
    // Already attempted (a job run again after its worker recorded the attempt), or being
    // attempted by a live worker.
    if (!claimed) return;
    const { delivery, secrets } = claimed;
    const attemptedAt = this.clock.now();
    if (!secrets.length) {
      await this.deliveries.record(delivery.id, {
        state: 'failed',
        requestHeaders: null,
        attemptedAt,
        responseCode: null,
        responseBody: null,
        durationMs: null,
        error: 'Every webhook of this URL was deleted before the attempt.',
      });
      return;
    }
    const body = JSON.stringify(delivery.payload);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      ...signatureHeaders(delivery.messageId, attemptedAt, body, secrets),
    };
    const result = await postWebhook({ url: delivery.url, headers, body, guard: this.guard });
    await this.deliveries.record(delivery.id, {
      state: result.ok ? 'success' : 'failed',
      requestHeaders: headers,
      attemptedAt,
      responseCode: result.responseCode,
      responseBody: result.responseBody,
      durationMs: result.durationMs,
      error: result.error,
    });
    if (!result.ok) this.logger.warn({ deliveryId: delivery.id, error: result.error }, 'Webhook delivery failed');
  }
}
