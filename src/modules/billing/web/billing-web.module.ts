import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { IdentityWebModule } from '../../identity/web/identity-web.module';
import { WebSessionMiddleware } from '../../identity/web/sessions/web-session.middleware';
import { WebhooksModule } from '../../webhooks/webhooks.module';
import { BillingModule } from '../billing.module';
import { CatalogModule } from '../../catalog/catalog.module';
import { IdentityModule } from '../../identity/identity.module';
import { HomePagesController } from './home-pages.controller';
import { DashboardHomeService } from './home.service';
import { OrdersPagesController } from './orders-pages.controller';

/** The dashboard's home page (`{web_url}/`: the sales figures) and its order pages (`{web_url}/orders`). */
@Module({
  imports: [IdentityWebModule, IdentityModule, BillingModule, CatalogModule, WebhooksModule],
  controllers: [HomePagesController, OrdersPagesController],
  providers: [DashboardHomeService],
})
export class BillingWebModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(WebSessionMiddleware).forRoutes(HomePagesController, OrdersPagesController);
  }
}
