import type { DynamicModule } from '@nestjs/common';
import { definePlugin } from '../../src/plugins';
import { ChatChannel } from './chat-channel';
import { ChatClient } from './chat-client';
import { CHAT_TEST_REQUESTED } from './chat-events';
import { ChatTestListener, OrderApprovedChatListener } from './chat-listeners';
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
 * The channel and the listeners are classes: Nest constructs them in the plugin's module, with the
 * plugin's `ChatClient` (and core's `OrderEventPayloads`, `DataSource`) injected.
 *
 * ```ts
 * createApp(config, connection, { plugins: [ChatNotifierPlugin.register({ webhookUrl })] });
 * ```
 */
export const ChatNotifierPlugin = {
  register(options: ChatNotifierOptions): DynamicModule {
    return definePlugin({
      name: 'chat-notifier',
      scopes: { 'chat.write': "Send test messages to the store's chat." },
      controllers: [ChatController],
      providers: [{ provide: ChatClient, useValue: new ChatClient(options.webhookUrl) }],
      eventListeners: [OrderApprovedChatListener, ChatTestListener],
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
      // Every customer message (receipt, refund, subscription notices) also goes to the chat, once,
      // retried when it fails.
      notificationChannels: [ChatChannel],
    });
  },
};
