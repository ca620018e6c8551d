import { Module } from '@nestjs/common';

/** Affiliates and commissions (issue #8). */
@Module({})
export class AffiliatesModule {}
