import { DataSource } from 'typeorm';
import type { DynamicModule } from '@nestjs/common';
import { definePlugin, OrderEventPayloads } from '../../src/plugins';
import { ChatChannel } from './chat-channel';
import { ChatClient } from './chat-client';
import { CHAT_TEST_REQUESTED } from './chat-events';
import { ChatController } from './chat.controller';

export interface ChatNotifierOptions {
  /** The chat's incoming-webhook URL. */
  webhookUrl: string;
}

/**
 * Posts to a chat when an order is approved (an event listener: every sale, whatever the store's
 * customer messages), and each customer message the stores send (the `chat` notification channel);
 * adds the `chat.write` scope, `POST /v1/chat/test` and the `chat_test` webhook event kind.
 *
 * ```ts
 * createApp(config, connection, { plugins: [ChatNotifierPlugin.register({ webhookUrl })] });
 * ```
 */
export const ChatNotifierPlugin = {
  register(options: ChatNotifierOptions): DynamicModule {
    const chat = new ChatClient(options.webhookUrl);
    return definePlugin({
      name: 'chat-notifier',
      scopes: { 'chat.write': "Send test messages to the store's chat." },
      controllers: [ChatController],
      eventListeners: [
        {
          name: 'chat-notifier.order-approved',
          types: ['order.approved'],
          async handle(event, { get }) {
            // After commit: the order is read as committed, outside any transaction.
            const order = await get(OrderEventPayloads).build(
              'order_approved',
              event.refs.orderId!,
              get(DataSource).manager,
            );
            await chat.post(
              `Order ${order.order_number} approved: ${order.amount.toFixed(2)} ${order.currency} (${order.product.name}).`,
            );
          },
        },
        {
          name: 'chat-notifier.test',
          types: [CHAT_TEST_REQUESTED],
          handle: () => chat.post('Test message from the commerce API.'),
        },
      ],
      webhookEventKinds: [
        {
          kind: 'chat_test',
          eventTypes: [CHAT_TEST_REQUESTED],
          buildPayload: async (event) => ({
            event_type: 'chat_test',
            event_id: event.id,
            store_id: event.storeId,
            requested_at: event.occurredAt,
          }),
        },
      ],
      // Every customer message (decisions §12) also goes to the chat, once, retried when it fails.
      notificationChannels: [new ChatChannel(chat)],
    });
  },
};
