import { Module } from '@nestjs/common';
import { SalesRepository } from './sales.repository';

/**
 * What other modules may ask about billing's orders ({@link SalesRepository}). A module of its
 * own, with no imports, so the catalog can use it while billing itself depends on discounts and
 * affiliates.
 */
@Module({
  providers: [SalesRepository],
  exports: [SalesRepository],
})
export class SalesModule {}
