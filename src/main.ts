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
  // Every interface, as Express did (Fastify's default is localhost only).
  await app.listen(config.port, '0.0.0.0');
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`Start-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
