import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { IdentityModule } from '../identity.module';
import { AccountController } from './account.controller';
import { ApiKeysPagesController } from './api-keys-pages.controller';
import { AppsPagesController } from './apps-pages.controller';
import { AuthorizeController } from './authorize.controller';
import { EmailSettingsPagesController } from './email-settings-pages.controller';
import { FaviconController } from './favicon.controller';
import { LoginThrottleService } from './login-throttle.service';
import { WebNotFoundController } from './not-found.controller';
import { WebSessionService } from './sessions/web-session.service';
import { CsrfGuard, WebSessionMiddleware } from './sessions/web-session.middleware';
import { OAuthClientGuard } from './oauth-client.guard';
import { SessionGuard } from './sessions/session.guard';
import { TestModePagesController } from './test-mode-pages.controller';
import { PasswordPagesController } from './password-pages.controller';
import { PasswordResetPagesController } from './password-reset-pages.controller';
import { ViewsService } from './views.service';
import { WebExceptionFilter } from './web-exception.filter';

/**
 * The seller dashboard under `{web_url}` (README, *Operating it*). Another web module with pages
 * imports this one, declares its controllers with `@DashboardPages()` (session required unless
 * `@AnonymousPage()`, CSRF on every POST, error pages) and applies `WebSessionMiddleware` to them;
 * handlers get the seller with `@CurrentSeller()`.
 */
@Module({
  imports: [IdentityModule],
  controllers: [
    AccountController,
    ApiKeysPagesController,
    AppsPagesController,
    AuthorizeController,
    EmailSettingsPagesController,
    PasswordPagesController,
    PasswordResetPagesController,
    FaviconController,
    TestModePagesController,
    WebNotFoundController,
  ],
  providers: [
    WebSessionService,
    WebSessionMiddleware,
    CsrfGuard,
    SessionGuard,
    OAuthClientGuard,
    ViewsService,
    WebExceptionFilter,
    LoginThrottleService,
  ],
  // IdentityModule too: `SessionGuard` is instantiated in each page module and reads the seller's role.
  exports: [
    IdentityModule,
    WebSessionService,
    WebSessionMiddleware,
    CsrfGuard,
    SessionGuard,
    ViewsService,
    WebExceptionFilter,
  ],
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
        PasswordPagesController,
        PasswordResetPagesController,
        TestModePagesController,
      );
  }
}
