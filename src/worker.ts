import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { loadConfigOrExit } from './config/app-config';
import { DatabaseConnection } from './database/database-connection';
import { announcedEmbeddedUrl } from './database/embedded-postgres';
import { createLogger, PinoNestLogger } from './logging';
import { WebhooksWorkerModule } from './modules/webhooks/webhooks-worker.module';

/**
 * `npm run start:worker`: delivers webhooks without serving HTTP, for deployments where the API
 * instances run with `WEBHOOK_WORKER=false`. Any number of workers and API instances may share
 * the database; each delivery is sent once.
 */
async function bootstrap(): Promise<void> {
  let config = loadConfigOrExit();
  if (!config.database.url) {
    // An embedded database belongs to the server that started it: reach it through its socket.
    const url = announcedEmbeddedUrl(config.dataDir);
    if (!url) {
      process.stderr.write('The webhook worker needs DATABASE_URL, or a running server with its embedded database in DATA_DIR.\n');
      process.exit(1);
    }
    config = { ...config, database: { ...config.database, url } };
  }
  const connection = await DatabaseConnection.open(config);
  const app = await NestFactory.createApplicationContext(WebhooksWorkerModule.forRoot(config, connection), { bufferLogs: true });
  app.useLogger(new PinoNestLogger(createLogger(config)));
  // SIGTERM/SIGINT: pg-boss finishes in-flight deliveries, then the pool closes.
  app.enableShutdownHooks();
  await app.init();
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`Worker start-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
