/**
 * Billing's public surface: what other modules, the app wiring, the CLI and the plugin API may
 * import (CONTRIBUTING.md, Layout). Everything else under billing/ is private to the module.
 *
 * The sales port comes first and Nest modules last: the catalog imports the sales port while
 * billing imports the catalog's entities, and webhooks import billing's events while billing's
 * dashboard pages import webhooks, so whichever file loads first must find here what the other uses
 * while its classes are being declared.
 */
// The order process other modules hook their reactions into (no import of another module).
export {
  OrderProcess,
  OrderProcessModule,
  type OrderTransition,
  type OrderTransitionHook,
} from './orders/order-process';
export { SalesModule } from './sales/sales.module';
export { SalesRepository, type SubscribedPlan, type SubscriberRow } from './sales/sales.repository';

// Events and their payloads (webhooks, notifications, plugins).
export {
  ORDER_EVENT_KIND_OF,
  ORDER_EVENT_KINDS,
  type OrderEventKind,
  type OrderEventPayload,
} from './events/order-events';
export { noPlanSubscriber, portalUrl } from './events/order-event-payload';
// What an order says about its buyer (emails show the same as the API).
export { buyerOf, type Buyer } from './customers/buyer';
// A product's public buy link (the dashboard's product page shows it).
export { buyLinkUrl } from './checkout/buy-link-url';

// Payment gateways (the plugin API and the app wiring).
export {
  GatewayUnreachableError,
  type AttemptReference,
  type CallbackNotification,
  type ChargeRequest,
  type GatewayOutcome,
  type PaymentGateway,
  type RefundLookup,
  type RefundOutcome,
  type RefundRequest,
} from './payments/payment-gateway';
export { PAYMENT_GATEWAYS, PaymentGatewayRegistry } from './payments/payment-gateway.registry';
export { PaymentGatewayRegistryModule } from './payments/payment-gateway-registry.module';

// Checkout rules plugins add (the plugin API, docs/extending.md).
export { CHECKOUT_RULES, type CheckoutCandidate, type CheckoutRule } from './orders/checkout-rules';

// Services and read ports.
export { OrderEventPayloads } from './events/order-event-payloads.service';
export { OrdersRepository } from './orders/orders.repository';
export { OrderEventRows, type OrderEventRowSet } from './events/order-event-rows';
export { OrdersService } from './orders/orders.service';
export { DownloadsService } from './downloads/downloads.service';
export { LicensesService } from './licenses/licenses.service';
export { CheckoutPaymentsService } from './payments/checkout-payments.service';
export { SubscriptionSweep } from './subscriptions/subscription-sweep.service';

// Nest modules, last: they load the rest.
export { BillingModule } from './billing.module';
export { CheckoutModule } from './checkout/checkout.module';
export { BUILT_IN_PAYMENT_GATEWAYS } from './payments/gateways';
export { BillingWebModule } from './web/billing-web.module';
