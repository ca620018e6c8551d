import { DynamicModule, Module } from '@nestjs/common';
import { CLOCK, systemClock } from '../../common/time';
import { AppConfig } from '../../config/app-config';
import { ConfigModule } from '../../config/config.module';
import { DatabaseConnection } from '../../database/database-connection';
import { DatabaseModule } from '../../database/database.module';
import { WebhooksModule } from './webhooks.module';

/**
 * What `npm run start:worker` runs: the database and the webhooks module, no HTTP. The worker is on
 * whatever `WEBHOOK_WORKER` says, since starting this process is asking for it.
 */
@Module({})
export class WebhooksWorkerModule {
  static forRoot(config: AppConfig, connection: DatabaseConnection): DynamicModule {
    const workerConfig: AppConfig = { ...config, webhooks: { ...config.webhooks, runWorker: true } };
    return {
      module: WebhooksWorkerModule,
      global: true,
      imports: [
        ConfigModule.forRoot(workerConfig),
        DatabaseModule.forRoot(connection),
        WebhooksModule,
      ],
      providers: [{ provide: CLOCK, useValue: systemClock }],
      exports: [CLOCK],
    };
  }
}
