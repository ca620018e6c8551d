import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Affiliate } from './affiliate.entity';
import { AffiliatesRepository } from './affiliates.repository';
import { AffiliatesService } from './affiliates.service';

/** Affiliates and commissions (issue #8). */
@Module({
  imports: [TypeOrmModule.forFeature([Affiliate])],
  providers: [AffiliatesRepository, AffiliatesService],
  exports: [AffiliatesService],
})
export class AffiliatesModule {}
