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
export { AnyToken, CurrentPrincipal, Public, RequireScopes } from '../modules/identity';
export type { Principal } from '../modules/identity';
export { Idempotent } from '../common/idempotency/idempotent.decorator';
export { ConflictError, NotFoundError, ValidationError } from '../common/errors/app-error';
export { KeepRawBody, type RequestWithRawBody } from '../common/http/raw-body';
export { AcceptsBody } from '../common/http/body-types';
export { ApiValidationFailed } from '../common/http/api-docs';

// Checkout rules: a new order passes each, or is refused before anything is written.
export type { CheckoutCandidate, CheckoutRule } from '../modules/billing';

// Storage drivers.
export { StoredObjectMissing, type ByteRange, type FileStorage } from '../modules/catalog';
export type { StorageDriver } from '../modules/catalog';

// Webhook event kinds, and the order payload (the webhooks of the OpenAPI description) for listeners.
export type { PayloadContext, WebhookEventKind } from '../modules/webhooks';
export { OrderEventPayloads, type OrderEventPayload } from '../modules/billing';

// Notification channels: the customer messages (README, *Customer emails*) on a channel besides email.
export {
  NOTIFICATION_CHANNELS,
  type ChannelResult,
  type CustomerMessage,
  type CustomerMessageKind,
  type NotificationChannel,
} from '../modules/notifications';
export { centsToDecimal, type Cents } from '../common/money';

// Configuration and the app.
export type { AppConfig } from '../config/app-config';
export { APP_CONFIG } from '../config/config.module';

// Payments: a gateway for payment methods (README, *Taking payments*).
export type {
  AttemptReference,
  CallbackNotification,
  ChargeRequest,
  GatewayOutcome,
  PaymentGateway,
  RefundLookup,
  RefundOutcome,
  RefundRequest,
} from '../modules/billing';
export {
  GatewayUnreachableError,
  PAYMENT_GATEWAYS,
  PaymentGatewayRegistry,
  PaymentGatewayRegistryModule,
} from '../modules/billing';
