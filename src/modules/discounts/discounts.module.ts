import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CouponRedemptionService } from './coupon-redemption.service';
import { CouponReleaseHook } from './coupon-release.hook';
import { Discount } from './discount.entity';
import { DiscountsController } from './discounts.controller';
import { DiscountsRepository } from './discounts.repository';
import { DiscountsService } from './discounts.service';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';

/** Coupon codes (issue #6). Order creation uses {@link CouponRedemptionService}. */
@Module({
  imports: [TypeOrmModule.forFeature([Discount]), IdempotencyModule],
  controllers: [DiscountsController],
  providers: [DiscountsRepository, DiscountsService, CouponRedemptionService, CouponReleaseHook],
  exports: [CouponRedemptionService, DiscountsService],
})
export class DiscountsModule {}
