import { Module } from '@nestjs/common';

/** Coupon codes (issue #6). */
@Module({})
export class DiscountsModule {}
