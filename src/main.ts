import 'reflect-metadata';
import { createApp } from './app.factory';
import { loadConfigOrExit } from './config/app-config';
import { DatabaseConnection } from './database/database-connection';

async function bootstrap(): Promise<void> {
  const config = loadConfigOrExit();
  const connection = await DatabaseConnection.open(config);
  const app = await createApp(config, connection);
  // Nest's shutdown hooks close the HTTP server first (in-flight requests finish), then the pool,
  // then the embedded database.
  await app.listen(config.port);
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`Start-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
