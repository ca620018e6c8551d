/**
 * Webhooks' public surface: what other modules, the app wiring, the CLI and the plugin API may
 * import (CONTRIBUTING.md, Layout). Everything else under webhooks/ is private to the module.
 */
export { WEBHOOK_EVENT_KINDS, type PayloadContext, type WebhookEventKind } from './event-kinds/webhook-event-kinds';
export { WebhooksService } from './webhooks.service';
export { WebhooksModule } from './webhooks.module';
export { WebhooksWebModule } from './web/webhooks-web.module';
