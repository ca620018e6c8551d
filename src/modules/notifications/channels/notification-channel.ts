import { Injectable, Optional } from '@nestjs/common';
import { Contributions, ExtensionPoint } from '../../../common/plugins/contributions';
import type { CustomerMessage } from '../messages/customer-message';

/**
 * A way of reaching a store's customers. Email is built in; a plugin adds another (SMS, chat) with
 * `definePlugin({ notificationChannels: [channel] })`, which contributes it at
 * {@link NOTIFICATION_CHANNELS}.
 *
 * A channel gets the facts of a message (kind, store, customer, order, links), renders them in its
 * own medium and hands the result to its provider. The customer-messages listener makes each
 * (channel, message) pair happen once: a channel is called again for a message only after it threw.
 */
export interface NotificationChannel {
  /**
   * Unique among the channels of the app, and stable across releases: part of each message's
   * once-only key. A short lower-case word (`email`, `sms`, `chat`; at most 32 characters).
   */
  readonly name: string;
  /**
   * Delivers one message.
   * - Resolve `sent` once the provider accepted it: it is recorded and never sent again on this
   *   channel. `recipient` is what was reached (a phone number, a chat); without it the customer's
   *   email address is recorded.
   * - Resolve `skipped` when the customer cannot be reached on this channel (no address): recorded,
   *   never tried again.
   * - Throw to have it retried with back-off (the job's retries, about a day); the other channels'
   *   messages already sent are not sent again.
   *
   * `message.id` is the same on every attempt: pass it to the provider as its idempotency key where
   * there is one (email: the Message-ID header). A worker that dies after the provider accepted but
   * before `sent` is recorded has the message sent again (at least once).
   */
  send(message: CustomerMessage): Promise<ChannelResult>;
}

export type ChannelResult =
  { outcome: 'sent'; recipient?: string; detail?: string } | { outcome: 'skipped'; reason: string };

/** Where the notification channels of plugins (`definePlugin({ notificationChannels })`) are collected. */
export const NOTIFICATION_CHANNELS = new ExtensionPoint<NotificationChannel>('notification channels');

const CHANNEL_NAME = /^[a-z][a-z0-9_-]{0,31}$/;

/**
 * The channels customer messages go out on, in registration order: the plugins' (read when this
 * registry is built), then those registered from an `onModuleInit` (email, and any channel that
 * needs injected services). Two channels of one name stop start-up.
 */
@Injectable()
export class NotificationChannels {
  private readonly channels = new Map<string, { channel: NotificationChannel; origin: string }>();

  constructor(@Optional() contributions?: Contributions) {
    for (const { value, plugin } of contributions?.entries(NOTIFICATION_CHANNELS) ?? []) {
      this.add(value, `plugin ${plugin}`);
    }
  }

  /** For a channel that is a provider (it needs injected services): call from its `onModuleInit`. */
  register(channel: NotificationChannel): void {
    this.add(channel, `provider ${channel.constructor.name}`);
  }

  all(): NotificationChannel[] {
    return [...this.channels.values()].map(({ channel }) => channel);
  }

  private add(channel: NotificationChannel, origin: string): void {
    if (!CHANNEL_NAME.test(channel.name))
      throw new Error(
        `Notification channel ${JSON.stringify(channel.name)} of ${origin}: a name is a lower-case word of at most 32 characters.`,
      );
    const taken = this.channels.get(channel.name);
    if (taken)
      throw new Error(`Notification channel ${channel.name} is registered twice: by ${taken.origin} and by ${origin}.`);
    this.channels.set(channel.name, { channel, origin });
  }
}
