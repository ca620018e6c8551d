/**
 * Identity's public surface: what other modules, the app wiring, the CLI and the plugin API may
 * import (CONTRIBUTING.md, Layout). Everything else under identity/ is private to the module.
 */
export { SCOPES, ALL_SCOPES, SCOPE_PATTERN, type CoreScope, type Scope } from './scopes';
export { SCOPE_EXTENSIONS, ScopeRegistry, type ScopeDefinition } from './scopes/scope-registry';
export type { Principal } from './auth/principal';
export { AnyToken, CurrentPrincipal, Public, RequireScopes, type AuthenticatedRequest } from './auth/auth.decorators';
export { Seller } from './sellers/seller.entity';
export { Store } from './sellers/store.entity';
export { isCurrencyCode } from './sellers/currencies';

// The seller dashboard's shared pieces, for the pages other modules add to it.
export {
  dashboardPage,
  fieldErrorsOf,
  formMoney,
  formNumber,
  formOptional,
  FormProblem,
  pageNotice,
  validateForm,
} from './web/form-validation';
export { formList, formString, sellerOf, type SellerSession } from './web/web-auth';
export { AnonymousPage, CurrentSeller, DashboardPages, ReturnAfterLogin } from './web/dashboard-pages';
export { ViewsService } from './web/views.service';
export { humanTime, money, timeTag } from './web/format';
export { WebExceptionFilter } from './web/web-exception.filter';
export { CsrfGuard, WebSessionMiddleware } from './web/sessions/web-session.middleware';

// Services other modules, the CLI and the seed use.
export { SellersService, type ReviewStore } from './sellers/sellers.service';
export { StoreModes } from './sellers/store-modes.service';
export { ApiKeysService } from './api-keys/api-keys.service';
export { OAuthAppsService } from './oauth/oauth-apps.service';
// Account emails (password reset): the notifications module registers their sender.
export { SellerMail, type PasswordResetEmail, type SellerMailSender } from './password-reset/seller-mail';
// Rate limiters (in memory, or shared through REDIS_URL): billing's public license API counts per IP.
export { RateLimiterFactory } from './rate-limit/rate-limiter.factory';
export { countRequest, setRateLimitHeaders } from './rate-limit/rate-limit-state';

// Nest modules, last: they load the rest.
export { IdentityModule } from './identity.module';
export { IdentityWebModule } from './web/identity-web.module';
// Last: it loads billing's barrel, whose pages need everything above.
export { StoreSettingsWebModule } from './web/store-settings-web.module';
