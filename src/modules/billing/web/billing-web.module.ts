import { forwardRef, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { IdentityModule, IdentityWebModule, WebSessionMiddleware } from '../../identity';
import { WebhooksModule } from '../../webhooks';
import { BillingModule } from '../billing.module';
import { CatalogModule } from '../../catalog';
import { CustomersPagesController } from './customers-pages.controller';
import { HomePagesController } from './home-pages.controller';
import { DashboardHomeService } from './home.service';
import { OrdersPagesController } from './orders-pages.controller';

/** The dashboard's home page (`{web_url}/`: the sales figures), its order, customer and subscription pages. */
@Module({
  // Webhooks import billing's events and the catalog asks billing's sales port, while these pages
  // show webhook deliveries and the catalog's products: those references are resolved once every
  // file has loaded (src/modules/billing/index.ts).
  imports: [
    IdentityWebModule,
    IdentityModule,
    BillingModule,
    forwardRef(() => CatalogModule),
    forwardRef(() => WebhooksModule),
  ],
  controllers: [HomePagesController, OrdersPagesController, CustomersPagesController],
  providers: [DashboardHomeService],
})
export class BillingWebModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(WebSessionMiddleware)
      .forRoutes(HomePagesController, OrdersPagesController, CustomersPagesController);
  }
}
