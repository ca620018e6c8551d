import { Module } from '@nestjs/common';

/** The hosted checkout and order portal under `{pay_url}` (decisions §8). */
@Module({})
export class CheckoutModule {}
