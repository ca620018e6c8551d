import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CouponRedemptionService } from './coupon-redemption.service';
import { Discount } from './discount.entity';
import { DiscountsRepository } from './discounts.repository';

/** Coupon codes (issue #6). */
@Module({
  imports: [TypeOrmModule.forFeature([Discount])],
  providers: [DiscountsRepository, CouponRedemptionService],
  exports: [CouponRedemptionService],
})
export class DiscountsModule {}
