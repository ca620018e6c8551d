import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { DomainEvent } from '../../../common/events/domain-event';
import { DomainEvents } from '../../../common/events/domain-events';
import { OrderEventPayloads } from '../../billing/events/order-event-payloads.service';
import { ORDER_EVENT_KIND_OF } from '../../billing/events/order-events';
import { Webhook } from '../entities/webhook.entity';
import { WebhookDeliveriesRepository } from '../webhook-deliveries.repository';
import { WebhooksRepository } from '../webhooks.repository';
import { WebhookQueue } from './webhook-queue';
import { generateMessageId } from './webhook-signer';

/**
 * The transactional outbox (decisions §7): on an order event, inside the order's transaction, one
 * delivery row and one queue job per URL group of the matching webhooks (spec §6.1.3). An error
 * here rolls the order change back rather than lose its webhooks.
 */
@Injectable()
export class WebhookNotifier implements OnModuleInit {
  constructor(
    private readonly events: DomainEvents,
    private readonly payloads: OrderEventPayloads,
    private readonly webhooks: WebhooksRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly queue: WebhookQueue,
  ) {}

  onModuleInit(): void {
    this.events.inTransaction([...ORDER_EVENT_KIND_OF.keys()], (event, manager) => this.record(event, manager));
  }

  private async record(event: DomainEvent, manager: EntityManager): Promise<void> {
    const kind = ORDER_EVENT_KIND_OF.get(event.type)!;
    const orderId = event.refs.orderId!;
    const subscribed = await this.webhooks.findSubscribed(event.storeId, kind, event.refs.productId!, manager);
    if (!subscribed.length) return;
    const groups = new Map<string, Webhook[]>();
    for (const webhook of subscribed) groups.set(webhook.url, [...(groups.get(webhook.url) ?? []), webhook]);
    // spec §6.3 as billing builds it for the order as it stands in this transaction.
    const payload = await this.payloads.build(kind, orderId, manager);
    for (const [url, group] of groups) {
      const delivery = await this.deliveries.createForGroup(
        { storeId: event.storeId, eventKind: kind, orderId, url, payload, messageId: generateMessageId(), redeliveryOf: null },
        group.map((w) => w.id),
        manager,
      );
      await this.queue.enqueue(delivery.id, manager);
    }
  }
}
