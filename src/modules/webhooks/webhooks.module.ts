import { forwardRef, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '../catalog';
import { IdentityModule } from '../identity';
import { WebhookDeliverer } from './delivery/webhook-deliverer';
import { WebhookNotifier } from './delivery/webhook-notifier';
import { WebhookEventKinds } from './event-kinds/webhook-event-kinds';
import { WebhookQueue } from './delivery/webhook-queue';
import { WebhookWorker } from './delivery/webhook-worker';
import { WorkerLease } from './delivery/worker-lease';
import { WebhookDeliveryTarget } from './entities/webhook-delivery-target.entity';
import { WebhookDelivery } from './entities/webhook-delivery.entity';
import { Webhook } from './entities/webhook.entity';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhooksController } from './webhooks.controller';
import { WebhooksProductDeletedListener } from './product-deleted.listener';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';
import { BillingModule } from '../billing';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';

/**
 * Webhook endpoints, the notifier (transactional outbox on order events) and the delivery worker
 * (issue #7). The worker runs here when `WEBHOOK_WORKER` is on, or alone via `npm run start:worker`.
 */
@Module({
  // The catalog's ProductsService resolves `product_details` and shows `product`; identity's
  // SellersService gives a test event the store's brand and currency. The catalog's barrel loads
  // billing's, which loads this module's: its reference is resolved once all have loaded.
  imports: [
    TypeOrmModule.forFeature([Webhook, WebhookDelivery, WebhookDeliveryTarget]),
    IdempotencyModule,
    BillingModule,
    IdentityModule,
    forwardRef(() => CatalogModule),
  ],
  controllers: [WebhooksController],
  providers: [
    WebhooksRepository,
    WebhookDeliveriesRepository,
    WebhooksService,
    WebhookQueue,
    WebhookNotifier,
    WebhookEventKinds,
    WebhookDeliverer,
    WebhookWorker,
    WorkerLease,
    WebhooksProductDeletedListener,
  ],
  exports: [WebhooksService, WebhookEventKinds],
})
export class WebhooksModule {}
