import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock, CLOCK } from '../../../common/time';
import { AppConfig } from '../../../config/app-config';
import { APP_CONFIG } from '../../../config/config.module';
import { WebhookDeliveriesRepository } from '../webhook-deliveries.repository';
import { postWebhook } from './http-poster';
import { signatureHeaders } from './webhook-signer';

const USER_AGENT = 'CommerceAPI-Webhooks/1.0';

/** Makes the one attempt of a delivery and records it on the delivery (so on every webhook of its group). */
@Injectable()
export class WebhookDeliverer {
  private readonly logger = new Logger(WebhookDeliverer.name);

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  private get guard(): boolean {
    return this.config.isProduction && !this.config.webhooks.allowPrivate;
  }

  async deliver(deliveryId: number): Promise<void> {
    const delivery = await this.deliveries.claim(deliveryId);
    if (!delivery) {
      // Already sent (a duplicate job) or claimed by a worker that died mid-attempt.
      const current = await this.deliveries.findById(deliveryId);
      if (current?.state === 'sending') await this.deliveries.failInterrupted(deliveryId, this.clock.now());
      return;
    }
    const secrets = await this.deliveries.secretsOf(delivery.id);
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
