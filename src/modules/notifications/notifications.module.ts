import { Module } from '@nestjs/common';
import { BillingModule } from '../billing';
import { NotificationChannels } from './channels/notification-channel';
import { CustomerMessagesListener } from './customer-messages.listener';
import { EmailChannel } from './email/email.channel';
import { EmailRenderer } from './email/email-renderer';
import { CustomerMessageComposer } from './messages/customer-message.composer';
import { CustomerMessagesRepository } from './messages/customer-messages.repository';

/**
 * Messages to a store's customers (README, *Customer emails*): the after-commit listener of order and
 * subscription events, the once-only record of each message, and its channels. Email is built in;
 * a plugin adds another with `definePlugin({ notificationChannels })` (the `NOTIFICATION_CHANNELS` point).
 */
@Module({
  imports: [BillingModule],
  providers: [
    NotificationChannels,
    CustomerMessagesRepository,
    CustomerMessageComposer,
    CustomerMessagesListener,
    EmailRenderer,
    EmailChannel,
  ],
  exports: [NotificationChannels],
})
export class NotificationsModule {}
