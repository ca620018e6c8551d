import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Affiliate } from './affiliate.entity';
import { AffiliatesController } from './affiliates.controller';
import { AffiliatesRepository } from './affiliates.repository';
import { AffiliatesService } from './affiliates.service';
import { AffiliateCommissionHook } from './commission.hook';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';

/** Affiliates and commissions (issue #8). */
@Module({
  imports: [TypeOrmModule.forFeature([Affiliate]), IdempotencyModule],
  controllers: [AffiliatesController],
  providers: [AffiliatesRepository, AffiliatesService, AffiliateCommissionHook],
  exports: [AffiliatesService],
})
export class AffiliatesModule {}
