import { Module } from '@nestjs/common';
import { APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKey } from './api-keys/api-key.entity';
import { ApiKeysRepository } from './api-keys/api-keys.repository';
import { ApiKeysService } from './api-keys/api-keys.service';
import { AuthGuard } from './auth/auth.guard';
import { AuthService } from './auth/auth.service';
import { OAuthApp } from './oauth/oauth-app.entity';
import { PasswordResetToken } from './password-reset/password-reset-token.entity';
import { PasswordResetService } from './password-reset/password-reset.service';
import { SellerMail } from './password-reset/seller-mail';
import { OAuthAppsRepository } from './oauth/oauth-apps.repository';
import { OAuthAppsService } from './oauth/oauth-apps.service';
import { OAuthAuthorizationCode } from './oauth/oauth-authorization-code.entity';
import { OAuthAuthorizationService } from './oauth/oauth-authorization.service';
import { OAuthGrant } from './oauth/oauth-grant.entity';
import { OAuthGrantsRepository } from './oauth/oauth-grants.repository';
import { OAuthMetadataRoute } from './oauth/oauth-metadata';
import { OAuthToken } from './oauth/oauth-token.entity';
import { OAuthTokenController } from './oauth/oauth-token.controller';
import { OAuthTokensService } from './oauth/oauth-tokens.service';
import { RateLimiterFactory } from './rate-limit/rate-limiter.factory';
import { TokenRateLimitService } from './rate-limit/token-rate-limit.service';
import { RouteCatalogService } from './scopes/route-catalog.service';
import { ScopesController } from './scopes/scopes.controller';
import { ScopeRegistry } from './scopes/scope-registry';
import { ScopesService } from './scopes/scopes.service';
import { Seller } from './sellers/seller.entity';
import { SellersRepository } from './sellers/sellers.repository';
import { SellersService } from './sellers/sellers.service';
import { Store } from './sellers/store.entity';
import { StoreModes } from './sellers/store-modes.service';
import { UserController } from './user.controller';

@Module({
  imports: [
    DiscoveryModule,
    TypeOrmModule.forFeature([
      Seller,
      Store,
      ApiKey,
      OAuthApp,
      OAuthGrant,
      OAuthAuthorizationCode,
      OAuthToken,
      PasswordResetToken,
    ]),
  ],
  controllers: [UserController, OAuthTokenController, ScopesController],
  providers: [
    SellersRepository,
    SellersService,
    StoreModes,
    ApiKeysRepository,
    ApiKeysService,
    AuthService,
    OAuthAppsRepository,
    OAuthAppsService,
    OAuthGrantsRepository,
    OAuthAuthorizationService,
    OAuthTokensService,
    OAuthMetadataRoute,
    RateLimiterFactory,
    PasswordResetService,
    SellerMail,
    ScopeRegistry,
    TokenRateLimitService,
    RouteCatalogService,
    ScopesService,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [
    SellersService,
    StoreModes,
    ApiKeysService,
    AuthService,
    OAuthAppsService,
    OAuthAuthorizationService,
    RateLimiterFactory,
    PasswordResetService,
    SellerMail,
    ScopeRegistry,
  ],
})
export class IdentityModule {}
