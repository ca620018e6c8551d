import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type DomainEvent, type EventListenerDefinition, OrderEventPayloads } from '../../src/plugins';
import { ChatClient } from './chat-client';
import { CHAT_TEST_REQUESTED } from './chat-events';

/** Every sale, whatever the store's customer messages: one line on the chat, after commit. */
@Injectable()
export class OrderApprovedChatListener implements EventListenerDefinition {
  readonly name = 'chat-notifier.order-approved';
  readonly types = ['order.approved'];

  constructor(
    private readonly chat: ChatClient,
    private readonly payloads: OrderEventPayloads,
    private readonly dataSource: DataSource,
  ) {}

  async handle(event: DomainEvent): Promise<void> {
    // After commit: the order is read as committed, outside any transaction.
    const order = await this.payloads.build('order_approved', event.refs.orderId!, this.dataSource.manager);
    await this.chat.post(
      `Order ${order.order_number} approved: ${order.amount.toFixed(2)} ${order.currency} (${order.product.name}).`,
    );
  }
}

/** `POST /v1/chat/test` publishes `chat.test_requested`; the chat is called here, after commit. */
@Injectable()
export class ChatTestListener implements EventListenerDefinition {
  readonly name = 'chat-notifier.test';
  readonly types = [CHAT_TEST_REQUESTED];

  constructor(private readonly chat: ChatClient) {}

  handle(): Promise<void> {
    return this.chat.post('Test message from the commerce API.');
  }
}
