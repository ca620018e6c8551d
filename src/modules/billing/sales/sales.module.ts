import { Module } from '@nestjs/common';
import { SalesQueryService } from './sales-query.service';

/**
 * What other modules may ask about billing's orders ({@link SalesQueryService}). A module of its
 * own, with no imports, so the catalog can use it while billing itself depends on discounts and
 * affiliates.
 */
@Module({
  providers: [SalesQueryService],
  exports: [SalesQueryService],
})
export class SalesModule {}
