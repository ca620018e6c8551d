import { Module } from '@nestjs/common';

/** Order bumps of a product: `/v1/products/{id}/order-bumps` (issue #8). */
@Module({})
export class OrderBumpsModule {}
