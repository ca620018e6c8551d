import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { ORDER_EVENT_NAMES, OrderEvent } from '../../billing/events/order-events';
import { Webhook } from '../entities/webhook.entity';
import { WebhookDeliveriesRepository } from '../webhook-deliveries.repository';
import { WebhooksRepository } from '../webhooks.repository';
import { WebhookQueue } from './webhook-queue';
import { generateMessageId } from './webhook-signer';

// A failure here must abort the order change rather than lose its webhooks (order-events.ts).
const LISTENER = { suppressErrors: false } as const;

/**
 * The transactional outbox (decisions §7): on an order event, inside the order's transaction, one
 * delivery row and one queue job per URL group of the matching webhooks (spec §6.1.3).
 */
@Injectable()
export class WebhookNotifier {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly queue: WebhookQueue,
  ) {}

  @OnEvent(ORDER_EVENT_NAMES.order_approved, LISTENER)
  onApproved(event: OrderEvent): Promise<void> {
    return this.record(event);
  }

  @OnEvent(ORDER_EVENT_NAMES.order_cancelled, LISTENER)
  onCancelled(event: OrderEvent): Promise<void> {
    return this.record(event);
  }

  @OnEvent(ORDER_EVENT_NAMES.order_refund, LISTENER)
  onRefunded(event: OrderEvent): Promise<void> {
    return this.record(event);
  }

  private async record(event: OrderEvent): Promise<void> {
    const { manager } = event;
    const subscribed = await this.webhooks.findSubscribed(event.storeId, event.kind, event.productId, manager);
    const groups = new Map<string, Webhook[]>();
    for (const webhook of subscribed) groups.set(webhook.url, [...(groups.get(webhook.url) ?? []), webhook]);
    for (const [url, group] of groups) {
      const delivery = await this.deliveries.createForGroup(
        {
          storeId: event.storeId,
          eventKind: event.kind,
          orderId: event.orderId,
          url,
          // spec §6.3 as billing built it; nothing is added here.
          payload: event.payload,
          messageId: generateMessageId(),
          redeliveryOf: null,
        },
        group.map((w) => w.id),
        manager,
      );
      await this.queue.enqueue(delivery.id, manager);
    }
  }
}
