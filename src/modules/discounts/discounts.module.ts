import { forwardRef, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '../catalog';
import { CouponRedemptionService } from './coupon-redemption.service';
import { CouponReleaseHook } from './coupon-release.hook';
import { Discount } from './discount.entity';
import { DiscountsController } from './discounts.controller';
import { DiscountsRepository } from './discounts.repository';
import { DiscountsService } from './discounts.service';
import { DiscountsProductDeletedHook } from './product-deleted.hook';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';

/**
 * Coupon codes (issue #6). Order creation uses {@link CouponRedemptionService}. A discount's
 * products are checked with the catalog's ProductsService; the catalog's barrel loads billing's,
 * which loads this module's, so its reference is resolved once all have loaded.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Discount]), IdempotencyModule, forwardRef(() => CatalogModule)],
  controllers: [DiscountsController],
  providers: [
    DiscountsRepository,
    DiscountsService,
    CouponRedemptionService,
    CouponReleaseHook,
    DiscountsProductDeletedHook,
  ],
  exports: [CouponRedemptionService, DiscountsService],
})
export class DiscountsModule {}
