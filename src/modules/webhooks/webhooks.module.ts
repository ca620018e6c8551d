import { Module } from '@nestjs/common';

/** Webhook endpoints, the notifier and the delivery worker (issue #7). */
@Module({})
export class WebhooksModule {}
