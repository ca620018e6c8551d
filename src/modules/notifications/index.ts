/**
 * Notifications' public surface: what the app wiring and the plugin API may import
 * (CONTRIBUTING.md, Layout). Everything else under notifications/ is private to the module.
 */
export { NOTIFICATION_CHANNELS, type ChannelResult, type NotificationChannel } from './channels/notification-channel';
export type { CustomerMessage, CustomerMessageKind } from './messages/customer-message';
export { NotificationsModule } from './notifications.module';
