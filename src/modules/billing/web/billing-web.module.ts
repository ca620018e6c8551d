import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { IdentityWebModule } from '../../identity/web/identity-web.module';
import { WebSessionMiddleware } from '../../identity/web/sessions/web-session.middleware';
import { WebhooksModule } from '../../webhooks/webhooks.module';
import { BillingModule } from '../billing.module';
import { OrdersPagesController } from './orders-pages.controller';

/** The dashboard's order pages under `{web_url}/orders`. */
@Module({
  imports: [IdentityWebModule, BillingModule, WebhooksModule],
  controllers: [OrdersPagesController],
})
export class BillingWebModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(WebSessionMiddleware).forRoutes(OrdersPagesController);
  }
}
