import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { IdentityWebModule } from '../../identity/web/identity-web.module';
import { WebSessionMiddleware } from '../../identity/web/sessions/web-session.middleware';
import { WebhooksModule } from '../webhooks.module';
import { WebhooksReportController } from './webhooks-report.controller';

/** The dashboard's webhook delivery report under `{web_url}/webhooks`. */
@Module({
  imports: [IdentityWebModule, WebhooksModule],
  controllers: [WebhooksReportController],
})
export class WebhooksWebModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(WebSessionMiddleware).forRoutes(WebhooksReportController);
  }
}
