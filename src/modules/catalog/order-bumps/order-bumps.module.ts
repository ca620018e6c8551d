import { Module } from '@nestjs/common';
import { OrderBumpsController } from './order-bumps.controller';
import { OrderBumpsRepository } from './order-bumps.repository';
import { OrderBumpsService } from './order-bumps.service';
import { ProductLookupRepository } from './product-lookup.repository';
import { IdempotencyModule } from '../../../common/idempotency/idempotency.module';

/**
 * Order bumps of a product: `/v1/products/{id}/order-bumps` (issue #8). Checkout reads the offer
 * through {@link OrderBumpsService.listForProduct}.
 */
@Module({
  imports: [IdempotencyModule],
  controllers: [OrderBumpsController],
  providers: [OrderBumpsRepository, ProductLookupRepository, OrderBumpsService],
  exports: [OrderBumpsService],
})
export class OrderBumpsModule {}
