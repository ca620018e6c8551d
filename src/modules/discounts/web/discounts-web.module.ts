import { forwardRef, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { CatalogModule } from '../../catalog';
import { IdentityWebModule, WebSessionMiddleware } from '../../identity';
import { DiscountsModule } from '../discounts.module';
import { DiscountsPagesController } from './discounts-pages.controller';

/** The dashboard's discount pages under `{web_url}/discounts`. */
@Module({
  // The catalog loads billing, which loads discounts: the reference is resolved once every file has
  // loaded (CONTRIBUTING.md, Layout).
  imports: [IdentityWebModule, DiscountsModule, forwardRef(() => CatalogModule)],
  controllers: [DiscountsPagesController],
})
export class DiscountsWebModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(WebSessionMiddleware).forRoutes(DiscountsPagesController);
  }
}
