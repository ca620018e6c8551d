import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { CatalogModule } from '../../catalog';
import { IdentityWebModule, WebSessionMiddleware } from '../../identity';
import { DiscountsModule } from '../discounts.module';
import { DiscountsPagesController } from './discounts-pages.controller';

/** The dashboard's discount pages under `{web_url}/discounts`. */
@Module({
  imports: [IdentityWebModule, DiscountsModule, CatalogModule],
  controllers: [DiscountsPagesController],
})
export class DiscountsWebModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(WebSessionMiddleware).forRoutes(DiscountsPagesController);
  }
}
