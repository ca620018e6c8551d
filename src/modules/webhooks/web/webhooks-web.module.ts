import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { IdentityWebModule, WebSessionMiddleware } from '../../identity';
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
