import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { AppConfig, loadConfigOrExit } from './config/app-config';
import { DatabaseConnection } from './database/database-connection';
import { announcedEmbeddedUrl } from './database/embedded-postgres';
import { createLogger, PinoNestLogger } from './logging';

/**
 * `npm run start:worker`: the background work (webhook deliveries and the jobs of the durable queue:
 * after-commit event handlers, periodic jobs) without serving HTTP, for deployments where the API
 * instances run with `WEBHOOK_WORKER=false`. Any number of workers and API instances may share the
 * database; pg-boss hands each job to one of them. The worker is on whatever `WEBHOOK_WORKER` says,
 * since starting this process is asking for it.
 */
async function bootstrap(): Promise<void> {
  let config = loadConfigOrExit();
  if (!config.database.url) {
    // An embedded database belongs to the server that started it: reach it through its socket.
    const url = announcedEmbeddedUrl(config.dataDir);
    if (!url) {
      process.stderr.write(
        'The webhook worker needs DATABASE_URL, or a running server with its embedded database in DATA_DIR.\n',
      );
      process.exit(1);
    }
    config = { ...config, database: { ...config.database, url } };
  }
  const connection = await DatabaseConnection.open(config);
  const workerConfig: AppConfig = {
    ...config,
    webhooks: { ...config.webhooks, runWorker: true },
    delivery: { ...config.delivery, fingerprint: 'check' },
  };
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(workerConfig, connection), {
    bufferLogs: true,
  });
  app.useLogger(new PinoNestLogger(createLogger(config)));
  // SIGTERM/SIGINT: pg-boss finishes in-flight deliveries, then the pool closes.
  app.enableShutdownHooks();
  await app.init();
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`Worker start-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
