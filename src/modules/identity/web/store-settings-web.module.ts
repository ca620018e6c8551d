import { forwardRef, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { SalesModule } from '../../billing';
import { IdentityModule } from '../identity.module';
import { IdentityWebModule } from './identity-web.module';
import { WebSessionMiddleware } from './sessions/web-session.middleware';
import { StoreSettingsPagesController } from './store-settings-pages.controller';

/**
 * Settings → Store (README, *Operating it*), a module of its own beside `IdentityWebModule`: it asks
 * billing's sales port whether the store has an order, and billing's pages import
 * `IdentityWebModule`, so that module stays free of billing. Identity's index exports this one last
 * and billing's barrel loads identity's, hence the forward references to billing.
 */
@Module({
  imports: [IdentityModule, IdentityWebModule, forwardRef(() => SalesModule)],
  controllers: [StoreSettingsPagesController],
})
export class StoreSettingsWebModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(WebSessionMiddleware).forRoutes(StoreSettingsPagesController);
  }
}
