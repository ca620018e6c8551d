import { Injectable } from '@nestjs/common';
import type { CustomerMessage } from '../messages/customer-message';

/**
 * A way of reaching a store's customers: email is built in; a plugin adds another (SMS, chat) by
 * registering one with {@link NotificationChannels.register} from its `onModuleInit`.
 *
 * A channel gets the facts of a message (kind, store, customer, order, links), renders them in its
 * own medium and hands the result to its provider. The customer-messages listener makes each
 * (channel, message) pair happen once: a channel is called again only after it threw.
 */
export interface NotificationChannel {
  /** Stable across releases: part of each message's once-only key (`email`, `sms`). */
  readonly name: string;
  /**
   * Delivers one message. Resolve once the provider accepted it (it is then never sent again);
   * throw to have it retried with back-off. `message.id` is the same on every attempt: pass it to
   * the provider as its idempotency key where there is one (email: the Message-ID header).
   * Resolve with `skipped` when the customer cannot be reached on this channel (no address).
   */
  send(message: CustomerMessage): Promise<ChannelResult>;
}

export type ChannelResult = { outcome: 'sent'; detail?: string } | { outcome: 'skipped'; reason: string };

/** The channels customer messages go out on, in registration order. */
@Injectable()
export class NotificationChannels {
  private readonly channels = new Map<string, NotificationChannel>();

  register(channel: NotificationChannel): void {
    if (!/^[a-z][a-z0-9_-]{0,31}$/.test(channel.name))
      throw new Error(`Notification channel name ${JSON.stringify(channel.name)} is not a short lowercase word.`);
    if (this.channels.has(channel.name)) throw new Error(`Notification channel ${channel.name} is registered twice.`);
    this.channels.set(channel.name, channel);
  }

  all(): NotificationChannel[] {
    return [...this.channels.values()];
  }
}
