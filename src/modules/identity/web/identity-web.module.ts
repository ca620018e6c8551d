import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { IdentityModule } from '../identity.module';
import { AccountController } from './account.controller';
import { ApiKeysPagesController } from './api-keys-pages.controller';
import { AppsPagesController } from './apps-pages.controller';
import { AuthorizeController } from './authorize.controller';
import { EmailSettingsPagesController } from './email-settings-pages.controller';
import { FaviconController } from './favicon.controller';
import { LoginThrottleService } from './login-throttle.service';
import { WebSessionService } from './sessions/web-session.service';
import { CsrfGuard, WebSessionMiddleware } from './sessions/web-session.middleware';
import { ViewsService } from './views.service';
import { WebExceptionFilter } from './web-exception.filter';

/**
 * The seller dashboard under `{web_url}` (decisions §2.1, §2.3). Another web module that needs the
 * logged-in seller imports this one, applies `WebSessionMiddleware` to its own controllers and
 * `@UseGuards(CsrfGuard)` on them (then `requireSeller(req)` from `web-auth.ts`).
 */
@Module({
  imports: [IdentityModule],
  controllers: [
    AccountController,
    ApiKeysPagesController,
    AppsPagesController,
    AuthorizeController,
    EmailSettingsPagesController,
    FaviconController,
  ],
  providers: [
    WebSessionService,
    WebSessionMiddleware,
    CsrfGuard,
    ViewsService,
    WebExceptionFilter,
    LoginThrottleService,
  ],
  exports: [WebSessionService, WebSessionMiddleware, CsrfGuard, ViewsService, WebExceptionFilter],
})
export class IdentityWebModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(WebSessionMiddleware)
      .forRoutes(
        AccountController,
        ApiKeysPagesController,
        AppsPagesController,
        AuthorizeController,
        EmailSettingsPagesController,
      );
  }
}
