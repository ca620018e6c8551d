import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { TransactionMemo } from '../../../database/transaction-memo';
import type { DomainEvent } from '../../../common/events/domain-event';
import { DomainEvents } from '../../../common/events/domain-events';
import { Webhook } from '../entities/webhook.entity';
import { WebhookEventKinds } from '../event-kinds/webhook-event-kinds';
import { WebhookDeliveriesRepository } from '../webhook-deliveries.repository';
import { WebhooksRepository } from '../webhooks.repository';
import { WebhookQueue } from './webhook-queue';
import { generateMessageId } from './webhook-signer';

/**
 * The transactional outbox (README, *Choices where the contract is silent*): on a domain event of a webhook event kind (the order
 * kinds, and the plugins'), inside the transaction of the change, one delivery row and one queue
 * job per URL group of the matching webhooks (the webhooks of the OpenAPI description). An error here rolls the change back
 * rather than lose its webhooks.
 */
@Injectable()
export class WebhookNotifier implements OnModuleInit {
  /**
   * The subscribed webhooks read in each transaction, by store, kind and product: the orders
   * approved together in one transaction (a group of payments) read them once.
   */
  private readonly subscribed: TransactionMemo<Webhook[]>;

  constructor(
    private readonly events: DomainEvents,
    private readonly kinds: WebhookEventKinds,
    private readonly webhooks: WebhooksRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly queue: WebhookQueue,
    @InjectDataSource() dataSource: DataSource,
  ) {
    this.subscribed = new TransactionMemo(dataSource);
  }

  onModuleInit(): void {
    this.events.inTransaction(this.kinds.eventTypes(), (event, manager) => this.record(event, manager));
  }

  private async record(event: DomainEvent, manager: EntityManager): Promise<void> {
    const kind = this.kinds.forEventType(event.type)!;
    // A webhook limited to a product hears the events that name that product only.
    const productId = event.refs.productId ?? null;
    const subscribed = await this.subscribed.get(manager, `${event.storeId}:${kind.kind}:${productId ?? ''}`, () =>
      this.webhooks.findSubscribed(event.storeId, kind.kind, productId, manager),
    );
    if (!subscribed.length) return;
    // Grouped by destination: URLs that differ only in how they are spelled (scheme or host case, `.`
    // segments, a default port) are one URL, as RFC 3986 compares them; each group is sent to its first.
    const groups = new Map<string, Webhook[]>();
    for (const webhook of subscribed) {
      const key = destinationOf(webhook.url);
      groups.set(key, [...(groups.get(key) ?? []), webhook]);
    }
    // Order kinds: (the webhooks of the OpenAPI description) as billing builds it for the order as it stands in this transaction.
    const payload = await this.kinds.buildPayload(kind, event, manager);
    for (const group of groups.values()) {
      const url = group[0].url;
      const delivery = await this.deliveries.createForGroup(
        {
          storeId: event.storeId,
          eventKind: kind.kind,
          orderId: event.refs.orderId ?? null,
          url,
          payload,
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

/** A webhook URL as WHATWG's URL serialises it (case, dot segments, default ports normalised); as written if it does not parse. */
function destinationOf(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}
