import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { IdentityWebModule } from '../../identity/web/identity-web.module';
import { WebSessionMiddleware } from '../../identity/web/sessions/web-session.middleware';
import { WebhooksModule } from '../webhooks.module';
import { WebhooksPagesController } from './webhooks-pages.controller';

/** The dashboard's webhook pages under `{web_url}/webhooks`. */
@Module({
  imports: [IdentityWebModule, WebhooksModule],
  controllers: [WebhooksPagesController],
})
export class WebhooksWebModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(WebSessionMiddleware).forRoutes(WebhooksPagesController);
  }
}
