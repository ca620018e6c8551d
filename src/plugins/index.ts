/**
 * The plugin API: what a plugin imports from core (docs/extending.md). Everything else under src/
 * may change without notice; this file's exports change only with a note in docs/extending.md.
 */
export {
  definePlugin,
  type Extension,
  type EventListenerDefinition,
  type ListenerContext,
  type PluginDefinition,
} from './define-plugin';

// Domain events and jobs.
export { domainEvent, type DomainEvent } from '../common/events/domain-event';
export { DomainEvents } from '../common/events/domain-events';
export { JobQueue, type QueueOptions } from '../common/jobs/job-queue';
export { Contributions, ExtensionPoint, type MigrationClass } from '../common/plugins/contributions';
export { PluginCommonModule } from './plugin-common.module';

// Data: a plugin's tables (`definePlugin({ entities, migrations })`) and transactions.
export { Transactions } from '../database/transaction';
export { runMigrations } from '../database/migrate';

// Routes: access, idempotency, errors, raw bodies.
export { AnyToken, CurrentPrincipal, Public, RequireScopes } from '../modules/identity/auth/auth.decorators';
export type { Principal } from '../modules/identity/auth/principal';
export { Idempotent } from '../common/idempotency/idempotent.decorator';
export { ConflictError, NotFoundError, ValidationError } from '../common/errors/app-error';
export { KeepRawBody, type RequestWithRawBody } from '../common/http/raw-body';
export { ApiValidationFailed } from '../common/http/api-docs';

// Checkout rules: a new order passes each, or is refused before anything is written.
export type { CheckoutCandidate, CheckoutRule } from '../modules/billing/orders/checkout-rules';

// Storage drivers.
export { StoredObjectMissing, type ByteRange, type FileStorage } from '../modules/catalog/files/storage/file-storage';
export type { StorageDriver } from '../modules/catalog/files/storage/storage-driver';

// Webhook event kinds, and the order payload of spec §6.3 for listeners.
export type { PayloadContext, WebhookEventKind } from '../modules/webhooks/event-kinds/webhook-event-kinds';
export { OrderEventPayloads } from '../modules/billing/events/order-event-payloads.service';
export type { OrderEventPayload } from '../modules/billing/events/order-events';

// Notification channels: the customer messages of decisions §12 on a channel besides email.
export {
  NOTIFICATION_CHANNELS,
  type ChannelResult,
  type NotificationChannel,
} from '../modules/notifications/channels/notification-channel';
export type { CustomerMessage, CustomerMessageKind } from '../modules/notifications/messages/customer-message';
export { centsToDecimal, type Cents } from '../common/money';

// Configuration and the app.
export type { AppConfig } from '../config/app-config';
export { APP_CONFIG } from '../config/config.module';

// Payments: a gateway for payment methods (decisions §10).
export type {
  AttemptReference,
  CallbackNotification,
  ChargeRequest,
  GatewayOutcome,
  PaymentGateway,
  RefundOutcome,
  RefundRequest,
} from '../modules/billing/payments/payment-gateway';
export { GatewayUnreachableError } from '../modules/billing/payments/payment-gateway';
export { PAYMENT_GATEWAYS, PaymentGatewayRegistry } from '../modules/billing/payments/payment-gateway.registry';
export { PaymentGatewayRegistryModule } from '../modules/billing/payments/payment-gateway-registry.module';
