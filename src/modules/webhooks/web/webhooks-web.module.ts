import { Module } from '@nestjs/common';

/** The dashboard's webhook delivery report under `{web_url}/webhooks`. */
@Module({})
export class WebhooksWebModule {}
