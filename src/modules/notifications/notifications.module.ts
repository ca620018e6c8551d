import { forwardRef, Module } from '@nestjs/common';
import { BillingModule } from '../billing';
import { CatalogModule } from '../catalog';
import { IdentityModule } from '../identity';
import { NotificationChannels } from './channels/notification-channel';
import { CustomerMessagesListener } from './customer-messages.listener';
import { EmailChannel } from './email/email.channel';
import { EmailRenderer } from './email/email-renderer';
import { CustomerMessageComposer } from './messages/customer-message.composer';
import { CustomerMessagesRepository } from './messages/customer-messages.repository';
import { SellerMessagesListener } from './seller-messages.listener';

/**
 * Messages to a store's customers (README, *Customer emails*): the after-commit listener of order and
 * subscription events, the once-only record of each message, and its channels. Also the review
 * decision emailed to the seller (`product.reviewed`, notifications' README). Email is built in;
 * a plugin adds another with `definePlugin({ notificationChannels })` (the `NOTIFICATION_CHANNELS` point).
 * The email channel also sends identity's account emails (password reset) through `SellerMail`.
 */
@Module({
  // forwardRef: the catalog's index loads billing's, so either module index may load first.
  imports: [BillingModule, forwardRef(() => CatalogModule), IdentityModule],
  providers: [
    NotificationChannels,
    CustomerMessagesRepository,
    CustomerMessageComposer,
    CustomerMessagesListener,
    SellerMessagesListener,
    EmailRenderer,
    EmailChannel,
  ],
  exports: [NotificationChannels],
})
export class NotificationsModule {}
