import { Module } from '@nestjs/common';

/** Orders, customers, checkout, payments and subscriptions (issue #5). */
@Module({})
export class BillingModule {}
